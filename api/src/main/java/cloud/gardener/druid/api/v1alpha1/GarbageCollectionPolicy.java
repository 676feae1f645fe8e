package cloud.gardener.druid.api.v1alpha1;



/** Which snapshots garbage collection keeps. */
public enum GarbageCollectionPolicy {
  /** All of the current hour, newest per hour for 24 h, per day for 7 days, per week for 4 weeks. */
  Exponential,
  /** The newest {@code maxBackupsLimitBasedGC} full snapshots. */
  LimitBased
}
