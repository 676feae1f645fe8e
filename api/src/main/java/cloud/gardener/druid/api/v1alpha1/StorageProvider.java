package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Object store providers, with the aliases upstream accepts (infrastructure names such as
 * {@code aws} that Gardener passes through).
 */
public enum StorageProvider {
  @JsonProperty("Local")
  LOCAL,
  @JsonProperty("S3")
  S3,
  @JsonProperty("aws")
  AWS,
  @JsonProperty("ABS")
  ABS,
  @JsonProperty("azure")
  AZURE,
  @JsonProperty("GCS")
  GCS,
  @JsonProperty("gcp")
  GCP,
  @JsonProperty("Swift")
  SWIFT,
  @JsonProperty("openstack")
  OPENSTACK,
  @JsonProperty("OSS")
  OSS,
  @JsonProperty("alicloud")
  ALICLOUD,
  @JsonProperty("ECS")
  ECS,
  @JsonProperty("dell")
  DELL,
  @JsonProperty("OCS")
  OCS,
  @JsonProperty("openshift")
  OPENSHIFT;

  /** The canonical provider an alias stands for. */
  public StorageProvider canonical() {
    return switch (this) {
      case AWS -> S3;
      case AZURE -> ABS;
      case GCP -> GCS;
      case OPENSTACK -> SWIFT;
      case ALICLOUD -> OSS;
      case DELL -> ECS;
      case OPENSHIFT -> OCS;
      default -> this;
    };
  }
}
