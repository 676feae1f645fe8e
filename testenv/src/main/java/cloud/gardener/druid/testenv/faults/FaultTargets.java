package cloud.gardener.druid.testenv.faults;

/** Where the injector finds what it hits; the run that owns the processes implements it. */
public interface FaultTargets {

  /** The pid of member {@code member}'s agent: its pod's container main process. */
  long agentPid(int member);

  /** The index of the member that leads now. */
  int leader();

  /** SIGKILL of the operator, then a new operator process at once, as a Deployment would. */
  void killOperator();

  /**
   * SIGKILL of the operator replica that holds the leader lease, then a new replica at once;
   * returns which replica was killed.
   */
  String killLeadingOperator();

  /** SIGKILL of kube-apiserver; it stays down until {@link #restartApiServer}. */
  void killApiServer();

  /** Starts kube-apiserver again on its address with its etcd; returns once it is ready. */
  void restartApiServer();
}
