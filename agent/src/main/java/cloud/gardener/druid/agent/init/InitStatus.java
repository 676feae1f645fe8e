package cloud.gardener.druid.agent.init;

/** The state of initialisation, as {@code /initialization/status} reports it (upstream words). */
public enum InitStatus {
  New, Progress, Successful, Failed
}
