package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.operator.agent.AgentReport;

import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The members' agent status calls, bounded three ways: they run on one small pool shared by
 * every Etcd; a reconcile waits for an answer at most {@link #WAIT} (the client's own connect
 * and read timeouts are shorter, so an unreachable agent costs one timeout, counted as no
 * answer); and an answer (or its absence) is reused for {@link #TTL} by observations that do
 * not ask for fresh views, so the two observations of one reconcile and the reconciles that
 * the agents' own lease renewals trigger call each agent at most once per TTL. Observations
 * after a step always call afresh, which also refreshes what later ones reuse.
 */
final class AgentStatuses {

  static final Duration TTL = Duration.ofSeconds(2);
  static final Duration WAIT = Duration.ofSeconds(5);

  private record Answer(AgentReport report, Instant at) {
  }

  private final AgentClient agents;
  private final ExecutorService pool;
  private final Clock clock;
  private final Map<AgentEndpoint, Answer> answers = new ConcurrentHashMap<>();

  AgentStatuses(AgentClient agents, ExecutorService pool, Clock clock) {
    this.agents = agents;
    this.pool = pool;
    this.clock = clock;
  }

  /** Starts the call for {@code endpoint}, or answers from a recent one unless {@code fresh}. */
  CompletableFuture<AgentReport> ask(AgentEndpoint endpoint, boolean fresh) {
    Answer recent = answers.get(endpoint);
    if (!fresh && recent != null && recent.at().plus(TTL).isAfter(clock.instant())) {
      return CompletableFuture.completedFuture(recent.report());
    }
    return CompletableFuture.supplyAsync(() -> {
      AgentReport report = agents.report(endpoint);
      answers.put(endpoint, new Answer(report, clock.instant()));
      return report;
    }, pool);
  }

  /** The answer, or none if it did not come within {@link #WAIT}. */
  static AgentReport await(CompletableFuture<AgentReport> call) {
    try {
      return call.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return AgentReport.NONE;
    } catch (Exception e) {
      return AgentReport.NONE;
    }
  }

  /** Drops answers older than the TTL (they are never used again). */
  void prune() {
    Instant cutoff = clock.instant().minus(TTL);
    answers.values().removeIf(a -> a.at().isBefore(cutoff));
  }
}
