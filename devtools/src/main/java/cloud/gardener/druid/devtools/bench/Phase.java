package cloud.gardener.druid.devtools.bench;

/**
 * Seconds from the start of a phase until the hibernated Etcds, and until all Etcds, fulfil
 * the rollout predicate. The two differ by how long member pods take to start, which is the
 * node's time more than the operator's.
 */
record Phase(double hibernated, double all) {

  static Phase since(long startNanos, Fleet.Completion done) {
    return new Phase(seconds(startNanos, done.hibernatedNanos()),
        seconds(startNanos, done.allNanos()));
  }

  private static double seconds(long from, long to) {
    return Math.round((to - from) / 1e7) / 100.0;
  }
}
