package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskSpec;
import cloud.gardener.druid.cli.shared.Etcds;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.GoDurationConverter;
import cloud.gardener.druid.cli.shared.UserError;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * A command that creates an EtcdOpsTask for one Etcd: it says what the task will do, creates it
 * (unless {@code --dry-run}) and follows it until it ends, printing each change of its progress.
 */
abstract class OpsTaskCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  KubeTarget target;

  @Mixin
  DryRun dryRun;

  @Parameters(index = "0", paramLabel = "ETCD", description = "Name of the Etcd.")
  String etcdName;

  @Option(names = "--wait", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Follow the task until it ends (default: ${DEFAULT-VALUE}).")
  boolean await;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30m",
      converter = GoDurationConverter.class,
      description = "How long to follow the task, e.g. 90s, 9m, 1h30m (default: ${DEFAULT-VALUE})."
          + " The task goes on after a timeout.")
  Duration timeout;

  /** Short name of the operation, the middle of the task's generated name. */
  abstract String operation();

  /** The task's operation; throws a {@link UserError} when it cannot be done on this Etcd. */
  abstract EtcdOpsTaskConfig config(Etcd etcd);

  /** What the task will do, one line each. */
  abstract List<String> effects(Etcd etcd);

  /**
   * True when a client {@code --dry-run} is the operation's own dry run (the task is created
   * and reports what it would do, e.g. an undelete) rather than kubectl's.
   */
  boolean dryRunIsTheTasks() {
    return false;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    String namespace = target.namespace();
    try (KubernetesClient client = target.client()) {
      Etcd etcd = Etcds.get(client.resources(Etcd.class).inNamespace(namespace)
          .withName(etcdName), namespace, etcdName);
      EtcdOpsTask task = task(namespace, config(etcd));
      out.println("will create EtcdOpsTask " + namespace + "/" + task.getMetadata()
          .getGenerateName() + "<random> for etcd " + namespace + "/" + etcdName + ":");
      effects(etcd).forEach(line -> out.println("  " + line));
      if (dryRun.client() && !dryRunIsTheTasks()) {
        out.println(dryRun.notice());
        return ExitCodes.OK;
      }
      EtcdOpsTask created = client.resource(task).dryRun(dryRun.server()).create();
      String name = created.getMetadata().getName();
      if (dryRun.server()) {
        out.println(dryRun.notice());
        return ExitCodes.OK;
      }
      out.println("created etcdopstask " + namespace + "/" + name);
      if (!await) {
        out.println("follow it with: kubectl druid status " + etcdName + " -n " + namespace);
        return ExitCodes.OK;
      }
      return new TaskFollower(client, namespace, out, spec.commandLine().getErr())
          .follow(name, etcdName, timeout);
    }
  }

  private EtcdOpsTask task(String namespace, EtcdOpsTaskConfig config) {
    EtcdOpsTask task = new EtcdOpsTask();
    task.setMetadata(new ObjectMetaBuilder().withNamespace(namespace)
        .withGenerateName(etcdName + "-" + operation() + "-").build());
    EtcdOpsTaskSpec spec = new EtcdOpsTaskSpec();
    spec.setEtcdName(etcdName);
    spec.setConfig(config);
    task.setSpec(spec);
    return task;
  }

  /** A store is needed for this: the refusal otherwise. */
  static void requireStore(Etcd etcd, String why) {
    if (etcd.getSpec().getBackup() == null || etcd.getSpec().getBackup().getStore() == null) {
      throw new UserError("etcd " + EtcdPlans.describe(etcd) + " has no backup store"
          + " (spec.backup.store): " + why, ExitCodes.REFUSED);
    }
  }
}
