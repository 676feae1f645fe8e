package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.cli.shared.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code druid ctl}, also run as {@code kubectl druid} (see
 * {@link cloud.gardener.druid.cli.KubectlDruid}): inspect and
 * operate Etcd clusters through the Kubernetes API, with kubectl's conventions.
 */
@Command(
    name = "ctl",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = {
        "Inspect and operate Etcd clusters through the Kubernetes API, with kubectl's"
            + " conventions: the namespace of the current context unless -n, --context,"
            + " --kubeconfig, durations such as 90s, 9m or 1h30m. Every command that changes"
            + " something first says what it will do and takes --dry-run."},
    subcommands = {
        CtlStatusCommand.class,
        CtlWaitCommand.class,
        ConfirmVolumesCommand.class,
        SnapshotCommand.class,
        DefragmentCommand.class,
        VerifyBackupsCommand.class,
        RetireSourceMembersCommand.class,
        RestoreCommand.class,
        UndeleteCommand.class,
        HistoryCommand.class,
        ReplaceMemberVolumeCommand.class,
        RecoverQuorumCommand.class,
        HibernateCommand.class,
        SetEtcdVersionCommand.class,
        WakeCommand.class,
        ReconcileCommand.class,
        SuspendCommand.class,
        ResumeCommand.class,
        ComponentProtectionCommand.class,
        ListResourcesCommand.class,
        ReportCommand.class,
        BackupsCommand.class,
        LogsCommand.class,
        CtlProbeCommand.class,
        CertificatesCommand.class,
        CommandLine.HelpCommand.class},
    exitCodeListHeading = "%nExit codes (of every command):%n",
    exitCodeList = {
        "0:done (applied, shown, rollout or task complete)",
        "1:error (API server, store, unexpected)",
        "2:usage error",
        "3:not found (Etcd, member, task, store)",
        "4:timed out waiting",
        "5:the followed task failed or was rejected",
        "6:refused (nothing to do, or not possible in this state)"})
public final class CtlCommand implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
