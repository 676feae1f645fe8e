package cloud.gardener.druid.agent;

import cloud.gardener.druid.agent.compact.CompactCommand;
import cloud.gardener.druid.agent.config.AgentConfig;
import cloud.gardener.druid.agent.copy.CopyCommand;
import cloud.gardener.druid.agent.http.AgentHttpServer;
import cloud.gardener.druid.agent.pitr.RestoreToCommand;
import cloud.gardener.druid.agent.pitr.UndeleteCommand;
import cloud.gardener.druid.agent.http.ApiSettings;
import cloud.gardener.druid.agent.verify.VerifyBackupsCommand;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code druid agent}: the per-member process (the role of etcd-backup-restore). */
@Command(
    name = "agent",
    mixinStandardHelpOptions = true,
    description = {
        "Run the member agent: initialises and validates the data directory, restores it "
            + "from the backup store when needed, supervises etcd, takes full and delta "
            + "snapshots and serves the agent HTTP API. Runs as the entry point of every member"
            + " pod.",
        "Exit codes: 0 after SIGTERM, 65 when the data directory belongs to another Etcd, "
            + "64 for invalid options, etcd's exit code (or 1) when etcd died."},
    subcommands = {CopyCommand.class, CompactCommand.class, VerifyBackupsCommand.class,
        RestoreToCommand.class, UndeleteCommand.class})
public final class AgentCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(AgentCommand.class);
  static final int EXIT_INVALID_OPTIONS = 64;

  @Mixin
  AgentOptions options = new AgentOptions();

  @Override
  public Integer call() throws Exception {
    AgentConfig config;
    try {
      config = options.toConfig();
    } catch (IllegalArgumentException e) {
      LOG.error("invalid options: {}", e.getMessage());
      return EXIT_INVALID_OPTIONS;
    }
    Agent agent = new Agent(config, new FileOutputStream(FileDescriptor.out));
    AgentHttpServer http = new AgentHttpServer(ApiSettings.of(config), agent.metrics(), agent,
        agent, agent);
    http.start();
    Thread hook = new Thread(() -> {
      LOG.info("stopping: SIGTERM received");
      agent.close();
    }, "shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return agent.run();
    } finally {
      http.close();
    }
  }
}
