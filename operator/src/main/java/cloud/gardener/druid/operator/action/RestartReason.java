package cloud.gardener.druid.operator.action;

/**
 * Why a member is restarted (its pod deleted and created again from the desired spec). A
 * restart carries every reason that applies, all named in its event and in lastOperation.
 */
public enum RestartReason {
  /** The pod does not run the member revision the spec asks for. */
  SPEC_CHANGED("the member's pod spec changed"),
  /** Part of that: the etcd configuration (the config map's checksum on the pod) changed. */
  ETCD_CONFIG_CHANGED("the etcd configuration changed"),
  /** The spec changed the peer URL scheme (peer TLS on or off); the agent re-registers it. */
  PEER_URL_CHANGED("the peer URL changes"),
  /**
   * Part of that: the space quota changes (spec.etcd.quota, or the quota the capacity flow
   * raised within spec.etcd.capacity.maxQuota; its event names the forecast).
   */
  QUOTA_CHANGED("the space quota changes"),
  /** Part of that: the member runs another etcd version than the spec asks for. */
  ETCD_VERSION_CHANGED("the etcd version changes"),
  /**
   * Part of that: a CA bundle of client or peer TLS changed, which etcd reads only at start
   * (a new certificate and key it reads at every handshake: no restart for those).
   */
  CERTIFICATE_CHANGED("certificate changed: a trusted CA bundle, read by etcd only at start"),
  /** The member is outdated and not ready: it does not count toward quorum, so it goes first. */
  NOT_READY("not ready, updated first"),
  /** The volume grew and its file system is resized when the pod starts again. */
  FILE_SYSTEM_RESIZE("the grown volume's file system is resized on start"),
  /** The member's volume is replaced: it is stopped and starts on a new one. */
  VOLUME_REPLACED("volume replacement"),
  /** It started alone to restore from the store and now runs with the cluster's size. */
  RESTORED_ALONE("started alone to restore from the store; now one of the cluster's members"),
  /**
   * Its pod is gone or going while the member keeps its place in etcd and its volume: it starts
   * again on its data. The restart of an earlier reconcile, once its pod is gone, continues so.
   */
  POD_DELETED("its pod was deleted; it starts again on its volume");

  private final String text;

  RestartReason(String text) {
    this.text = text;
  }

  /** Every reason in words, in the enum's order, for events and lastOperation. */
  public static String describe(java.util.Set<RestartReason> reasons) {
    return String.join("; ", reasons.stream().sorted().map(RestartReason::text).toList());
  }

  /** In words, for events and lastOperation. */
  public String text() {
    return text;
  }
}
