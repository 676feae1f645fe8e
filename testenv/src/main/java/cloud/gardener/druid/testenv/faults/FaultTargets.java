package cloud.gardener.druid.testenv.faults;

/** Where the injector finds what it hits; the run that owns the processes implements it. */
public interface FaultTargets {

  /** The pid of member {@code member}'s agent: its pod's container main process. */
  long agentPid(int member);

  /** The index of the member that leads now. */
  int leader();

  /** SIGKILL of the operator, then a new operator process at once, as a Deployment would. */
  void killOperator();
}
