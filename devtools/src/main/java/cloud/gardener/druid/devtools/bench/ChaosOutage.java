package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.devtools.bench.HistoryChecks.Check;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What one kube-apiserver kill showed: how long the API was gone, the writes the members
 * acknowledged and refused meanwhile (they do not need the API), whether the operator process
 * that ran before still runs (no crash, no lost lease), and the member pods deleted in the
 * round against those its rollout had to restart (each once: none lost, none twice).
 */
record ChaosOutage(int round, Duration down, int writes, List<String> failures,
    boolean operatorSurvived, long podDeletions, int expectedDeletions) {

  boolean held() {
    return writes > 0 && failures.isEmpty() && operatorSurvived
        && podDeletions == expectedDeletions;
  }

  String describe() {
    return String.format("round %d: API down %.1fs, %d writes acknowledged meanwhile%s, "
        + "operator %s, %d of %d member restarts", round, down.toMillis() / 1000.0, writes,
        failures.isEmpty() ? "" : " and failed: " + String.join("; ", failures),
        operatorSurvived ? "survived" : "did NOT survive", podDeletions, expectedDeletions);
  }

  /** Every outage of the run held; vacuous (and says so) when the plan had none. */
  static Check check(List<ChaosOutage> outages) {
    String name = "operator and members outlived every API outage";
    if (outages.isEmpty()) {
      return new Check(name, true, "no apiserver-kill round in this plan");
    }
    return new Check(name, outages.stream().allMatch(ChaosOutage::held),
        outages.stream().map(ChaosOutage::describe).collect(Collectors.joining("; ")));
  }
}
