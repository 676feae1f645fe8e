package cloud.gardener.druid.cli.bench;

/**
 * What a quiet window measured.
 *
 * @param operatorCpuPercent  of one core; null when no operator ran in the window
 * @param operatorRssMib      at the window's end; null without operator
 * @param operatorHeapUsedMib heap in use at the end, garbage included; null without operator
 * @param operatorHeapMaxMib  the heap's limit; null without operator
 */
record WindowFigures(double seconds, RequestRates requests, double apiServerCpuPercent,
    Double operatorCpuPercent, Double operatorRssMib, Double operatorHeapUsedMib,
    Double operatorHeapMaxMib) {

  private static final double MIB = 1024.0 * 1024.0;

  static WindowFigures between(Snapshot from, Snapshot to) {
    double seconds = (to.nanos() - from.nanos()) / 1e9;
    RequestRates rates = RequestRates.between(from.apiServerMetrics(), to.apiServerMetrics(),
        seconds);
    double apiCpu = ProcSample.cpuPercentOfCore(from.apiServer(), to.apiServer());
    if (from.operator().isEmpty() || to.operator().isEmpty()
        || to.operatorMetrics().isEmpty()) {
      return new WindowFigures(seconds, rates, apiCpu, null, null, null, null);
    }
    var metrics = to.operatorMetrics().get();
    return new WindowFigures(seconds, rates, apiCpu,
        ProcSample.cpuPercentOfCore(from.operator().get(), to.operator().get()),
        to.operator().get().rssKib() / 1024.0,
        Snapshot.heapUsedBytes(metrics) / MIB, Snapshot.heapMaxBytes(metrics) / MIB);
  }
}
