package cloud.gardener.druid.api.agent;

/** The state of initialisation, as {@code /initialization/status} reports it (upstream words). */
public enum InitStatus {
  New, Progress, Successful, Failed
}
