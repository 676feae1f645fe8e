package cloud.gardener.druid.agent;

import picocli.CommandLine;

/**
 * Runs the agent without the rest of the druid command, e.g. from a test classpath where the
 * fat jar does not exist yet: {@code java -cp ... cloud.gardener.druid.agent.AgentMain ARGS}
 * is the same as {@code druid agent ARGS}.
 */
public final class AgentMain {

  private AgentMain() {
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new AgentCommand()).execute(args));
  }
}
