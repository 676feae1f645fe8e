package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Which of the agent's stores serves a {@code spec.backup.store.provider} (upstream's names
 * and aliases), or why none does. A provider without a store of its own is refused, never
 * handed to another store's client.
 */
public final class StoreProviders {

  private StoreProviders() {
  }

  /** What the agent does with a store spec. */
  public sealed interface Mapping permits Served, Refused {
  }

  /** The agent's {@code --store-provider} value. */
  public record Served(String agentProvider) implements Mapping {
  }

  /** Why no agent store serves the provider (without the field name). */
  public record Refused(String reason) implements Mapping {
  }

  public static Mapping of(StoreSpec store) {
    StorageProvider provider = store.getProvider() == null ? StorageProvider.LOCAL
        : store.getProvider();
    return switch (provider.canonical()) {
      case LOCAL -> new Served("Local");
      // Dell ECS and OpenShift Container Storage serve the S3 API, as upstream uses them
      case S3, ECS, OCS -> new Served("S3");
      case GCS -> new Served("GCS");
      case ABS -> new Served("ABS");
      case OSS -> new Refused(refused(provider, "Alibaba Cloud OSS")
          + "; its S3-compatible API is not verified to serve the v2 layout of"
          + " etcd-backup-restore's OSS store (no OSS emulator to test against)");
      case SWIFT -> new Refused(refused(provider, "OpenStack Swift"));
      case AWS, AZURE, GCP, OPENSTACK, ALICLOUD, DELL, OPENSHIFT, STACKIT, LOCAL_LOWER_CASE,
          S3_LOWER_CASE, ABS_LOWER_CASE, GCS_LOWER_CASE, SWIFT_LOWER_CASE, OSS_LOWER_CASE,
          ECS_LOWER_CASE, OCS_LOWER_CASE ->
          throw new IllegalStateException("not canonical: " + provider);
    };
  }

  private static String refused(StorageProvider provider, String what) {
    return spelling(provider) + " (" + what + ") has no"
        + " backup store in this operator; supported: " + supported();
  }

  /** The provider as a spec spells it ({@code openstack}, {@code Swift}). */
  static String spelling(StorageProvider provider) {
    try {
      return StorageProvider.class.getField(provider.name()).getAnnotation(JsonProperty.class)
          .value();
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The providers that work, for messages. */
  public static String supported() {
    return "Local, S3 (aws, stackit, dell/ECS, openshift/OCS), GCS (gcp), ABS (azure)";
  }

  /** The agent's {@code --store-provider} value; the spec must have been validated. */
  public static String agentProvider(StoreSpec store) {
    Mapping mapping = of(store);
    if (mapping instanceof Served served) {
      return served.agentProvider();
    }
    throw new IllegalStateException(
        "spec.backup.store.provider: " + ((Refused) mapping).reason());
  }
}
