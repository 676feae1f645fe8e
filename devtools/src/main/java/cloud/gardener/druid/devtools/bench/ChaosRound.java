package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.devtools.bench.HistoryChecks.Check;
import cloud.gardener.druid.testenv.faults.Fault;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;

/**
 * One round of a chaos run: the fault, what it hit and when (to match with the logs), how long the cluster took to heal after the
 * fault ended (empty: not within the bound), the writes acknowledged meanwhile and why writes
 * failed (each reason once).
 */
record ChaosRound(Fault fault, String target, Instant at, Optional<Duration> heal,
    Duration bound, int acknowledged, List<String> failures) {

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS")
      .withZone(ZoneOffset.UTC);

  boolean healed() {
    return heal.isPresent();
  }

  /** {@code round   3 03:16:31.802 etcd-kill member 0  etcd of member 0  healed in 11.8s, …}. */
  String line() {
    return String.format("round %3d %s %-44s %-28s %s, writes +%d acknowledged%s",
        fault.round(), TIME.format(at), fault.describe(), target,
        heal.map(d -> String.format("healed in %5.1fs", d.toMillis() / 1000.0))
            .orElse("NOT healed within " + bound.toSeconds() + "s"), acknowledged,
        failures.isEmpty() ? "" : ", failed: " + String.join("; ", failures));
  }

  /** Every planned round ran and healed within the bound; the slowest heal as evidence. */
  static Check healCheck(List<ChaosRound> rounds, int planned, Duration bound) {
    long healed = rounds.stream().filter(ChaosRound::healed).count();
    String slowest = rounds.stream().flatMap(r -> r.heal().stream()).max(Duration::compareTo)
        .map(d -> String.format("slowest %.1fs", d.toMillis() / 1000.0)).orElse("none healed");
    return new Check("every round healed within " + bound.toSeconds() + "s",
        healed == planned, healed + " of " + planned + " rounds healed, " + slowest);
  }
}
