package cloud.gardener.druid.devtools.bench;

/**
 * What a quiet window measured.
 *
 * @param requests            every client's, from kube-apiserver's counter
 * @param operatorRequests    the operator's own, from its client counter; null without operator
 * @param operatorCpuPercent  of one core; null when no operator ran in the window
 * @param operatorRssMib      at the window's end; null without operator
 * @param operatorHeapUsedMib heap in use at the end, garbage included; null without operator
 * @param operatorHeapMaxMib  the heap's limit; null without operator
 */
record WindowFigures(double seconds, RequestRates requests, RequestRates operatorRequests,
    double apiServerCpuPercent,
    Double operatorCpuPercent, Double operatorRssMib, Double operatorHeapUsedMib,
    Double operatorHeapMaxMib) {

  private static final double MIB = 1024.0 * 1024.0;

  static WindowFigures between(WindowReading from, WindowReading to) {
    double seconds = (to.nanos() - from.nanos()) / 1e9;
    RequestRates rates = RequestRates.between(from.apiServerMetrics(), to.apiServerMetrics(),
        seconds);
    double apiCpu = ProcSample.cpuPercentOfCore(from.apiServer(), to.apiServer());
    if (from.operator().isEmpty() || to.operator().isEmpty()
        || from.operatorMetrics().isEmpty() || to.operatorMetrics().isEmpty()) {
      return new WindowFigures(seconds, rates, null, apiCpu, null, null, null, null);
    }
    var metrics = to.operatorMetrics().get();
    RequestRates own = RequestRates.between(from.operatorMetrics().orElseThrow(), metrics,
        seconds, RequestRates.OPERATOR_COUNTER);
    return new WindowFigures(seconds, rates, own, apiCpu,
        ProcSample.cpuPercentOfCore(from.operator().get(), to.operator().get()),
        to.operator().get().rssKib() / 1024.0,
        WindowReading.heapUsedBytes(metrics) / MIB, WindowReading.heapMaxBytes(metrics) / MIB);
  }
}
