package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Object store providers, with every alias upstream's {@code StorageProviderFromInfraProvider}
 * accepts: infrastructure names such as {@code aws} that Gardener passes through, S3-compatible
 * {@code stackit}, and the lower-case forms of the canonical names.
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
  OPENSHIFT,
  @JsonProperty("stackit")
  STACKIT,
  // upstream also reads the lower-case forms of the canonical names
  @JsonProperty("local")
  LOCAL_LOWER_CASE,
  @JsonProperty("s3")
  S3_LOWER_CASE,
  @JsonProperty("abs")
  ABS_LOWER_CASE,
  @JsonProperty("gcs")
  GCS_LOWER_CASE,
  @JsonProperty("swift")
  SWIFT_LOWER_CASE,
  @JsonProperty("oss")
  OSS_LOWER_CASE,
  @JsonProperty("ecs")
  ECS_LOWER_CASE,
  @JsonProperty("ocs")
  OCS_LOWER_CASE;

  /** The canonical provider an alias stands for. */
  public StorageProvider canonical() {
    return switch (this) {
      case AWS, STACKIT, S3_LOWER_CASE -> S3;
      case AZURE, ABS_LOWER_CASE -> ABS;
      case GCP, GCS_LOWER_CASE -> GCS;
      case OPENSTACK, SWIFT_LOWER_CASE -> SWIFT;
      case ALICLOUD, OSS_LOWER_CASE -> OSS;
      case DELL, ECS_LOWER_CASE -> ECS;
      case OPENSHIFT, OCS_LOWER_CASE -> OCS;
      case LOCAL_LOWER_CASE -> LOCAL;
      case LOCAL, S3, ABS, GCS, SWIFT, OSS, ECS, OCS -> this;
    };
  }
}
