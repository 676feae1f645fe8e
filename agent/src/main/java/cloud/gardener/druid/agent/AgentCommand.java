package cloud.gardener.druid.agent;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code druid agent}: the per-member process (the role of etcd-backup-restore). */
@Command(
    name = "agent",
    mixinStandardHelpOptions = true,
    description = {
        "Run the member agent: initialises and validates the data directory, restores it "
            + "from the backup store when needed, supervises etcd, takes full and delta "
            + "snapshots and serves the agent HTTP API. Runs as the entry point of every member"
            + " pod."})
public final class AgentCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    System.err.println("druid agent: the agent is not part of this build yet");
    return 3;
  }
}
