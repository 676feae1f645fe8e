package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.types.Quantities;
import cloud.gardener.druid.api.member.EtcdRelease;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.SecretReference;
import java.util.List;

/** Configuration of the etcd process of each member. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "!has(self.additionalAdvertisePeerURLs) || !has(self.peerUrlTls)"
        + " || self.additionalAdvertisePeerURLs.all(m, m.urls.all(u, u.startsWith('https://')))",
    message = "spec.etcd.additionalAdvertisePeerURLs: when peerUrlTls is enabled, all additional"
        + " advertise peer URLs must use https://",
    fieldPath = ".additionalAdvertisePeerURLs")
@ValidationRule(
    value = "!has(self.additionalAdvertisePeerURLs) || has(self.peerUrlTls)"
        + " || self.additionalAdvertisePeerURLs.all(m, m.urls.all(u, u.startsWith('http://')))",
    message = "spec.etcd.additionalAdvertisePeerURLs: when peerUrlTls is not enabled, all"
        + " additional advertise peer URLs must use http://",
    fieldPath = ".additionalAdvertisePeerURLs")
@ValidationRule(
    value = "!has(self.bootstrapWithExistingCluster) || !has(self.peerUrlTls)"
        + " || self.bootstrapWithExistingCluster.members.all(m, m.peerUrls.all(u,"
        + " u.startsWith('https://')))",
    message = "spec.etcd.bootstrapWithExistingCluster: when peerUrlTls is enabled, all member"
        + " peer URLs must use https://",
    fieldPath = ".bootstrapWithExistingCluster")
@ValidationRule(
    value = "!has(self.bootstrapWithExistingCluster) || has(self.peerUrlTls)"
        + " || self.bootstrapWithExistingCluster.members.all(m, m.peerUrls.all(u,"
        + " u.startsWith('http://')))",
    message = "spec.etcd.bootstrapWithExistingCluster: when peerUrlTls is not enabled, all"
        + " member peer URLs must use http://",
    fieldPath = ".bootstrapWithExistingCluster")
@ValidationRule(
    value = "!has(self.bootstrapWithExistingCluster) || !has(self.clientUrlTls)"
        + " || self.bootstrapWithExistingCluster.clientEndpoints.all(u,"
        + " u.startsWith('https://'))",
    message = "spec.etcd.bootstrapWithExistingCluster: when clientUrlTls is enabled, all"
        + " clientEndpoints must use https://",
    fieldPath = ".bootstrapWithExistingCluster")
@ValidationRule(
    value = "!has(self.bootstrapWithExistingCluster) || has(self.clientUrlTls)"
        + " || self.bootstrapWithExistingCluster.clientEndpoints.all(u,"
        + " u.startsWith('http://'))",
    message = "spec.etcd.bootstrapWithExistingCluster: when clientUrlTls is not enabled, all"
        + " clientEndpoints must use http://",
    fieldPath = ".bootstrapWithExistingCluster")
@ValidationRule(
    value = "!has(self.bootstrapWithExistingCluster) || has(oldSelf.bootstrapWithExistingCluster)",
    message = "spec.etcd.bootstrapWithExistingCluster cannot be added after the Etcd resource"
        + " has been created",
    fieldPath = ".bootstrapWithExistingCluster")
@ValidationRule(
    value = "!has(self.capacity) || !has(self.capacity.maxQuota) || !has(self.quota)"
        + " || quantity(string(self.capacity.maxQuota)).compareTo(quantity(string(self.quota)))"
        + " >= 0",
    message = "spec.etcd.capacity.maxQuota must not be below spec.etcd.quota",
    fieldPath = ".capacity.maxQuota")
public class EtcdConfig {

  @ValidationRule(value = Quantities.RULE, message = Quantities.MESSAGE)
  @JsonPropertyDescription("Backend quota of etcd (--quota-backend-bytes).")
  private Quantity quota;

  @Min(1)
  private Long snapshotCount;

  @SchemaFrom(type = String.class)
  @Size(max = CronSchedule.MAX_LENGTH)
  @Pattern(CronSchedule.PATTERN)
  @ValidationRule(value = CronSchedule.RULE, message = CronSchedule.RULE_MESSAGE)
  @JsonPropertyDescription("Schedule of defragmentation as robfig/cron reads it (evaluated in"
      + " UTC; default every 3 days).")
  private CronSchedule defragmentationSchedule;

  @Min(1)
  @Max(65535)
  private Integer serverPort;

  @Min(1)
  @Max(65535)
  private Integer clientPort;

  @Min(1)
  @Max(65535)
  private Integer wrapperPort;

  @JsonPropertyDescription("The image that provides etcd upstream (etcd-wrapper). Ignored here: the"
      + " member image ships every supported etcd; choose one with version.")
  private String image;

  @Default("3.6")
  @Pattern("^3\\.(5|6|7)$")
  @JsonPropertyDescription("Extension of this operator: the etcd minor every member runs, one of "
      + EtcdRelease.MINORS + " (default 3.6), at the patch the member image ships. Changing it"
      + " upgrades or downgrades the cluster member by member, one minor at a time."
      + " docs/etcd-versions.md.")
  private String version;

  private MetricsLevel metrics;

  private ResourceRequirements resources;

  private TLSConfig clientUrlTls;

  private PeerTLSConfig peerUrlTls;

  @SchemaFrom(type = String.class)
  @Pattern(GoDuration.PATTERN)
  private GoDuration etcdDefragTimeout;

  @SchemaFrom(type = String.class)
  @Pattern(GoDuration.PATTERN)
  private GoDuration heartbeatDuration;

  private ClientService clientService;

  private SecretReference authSecretRef;

  private Boolean enableGRPCGateway;

  private BboltFreelistType backendBboltFreelistType;

  @Size(max = 10)
  @JsonPropertyDescription("Extra peer URLs per member (<member name>: urls); member names are"
      + " <memberNamePrefix or Etcd name>-<index below replicas>.")
  private List<AdditionalPeerUrls> additionalAdvertisePeerURLs;

  @JsonPropertyDescription("Extension of this operator: watch the database's space and act"
      + " before the quota or the volume runs out (docs/capacity.md).")
  private CapacitySpec capacity;

  @JsonPropertyDescription("Join an existing etcd cluster (upstream). Not supported by this"
      + " operator yet: an Etcd that sets it is refused at admission.")
  private BootstrapWithExistingCluster bootstrapWithExistingCluster;

  public CapacitySpec getCapacity() {
    return capacity;
  }

  public void setCapacity(CapacitySpec capacity) {
    this.capacity = capacity;
  }

  public Quantity getQuota() {
    return quota;
  }

  public void setQuota(Quantity quota) {
    this.quota = quota;
  }

  public Long getSnapshotCount() {
    return snapshotCount;
  }

  public void setSnapshotCount(Long snapshotCount) {
    this.snapshotCount = snapshotCount;
  }

  public CronSchedule getDefragmentationSchedule() {
    return defragmentationSchedule;
  }

  public void setDefragmentationSchedule(CronSchedule defragmentationSchedule) {
    this.defragmentationSchedule = defragmentationSchedule;
  }

  public Integer getServerPort() {
    return serverPort;
  }

  public void setServerPort(Integer serverPort) {
    this.serverPort = serverPort;
  }

  public Integer getClientPort() {
    return clientPort;
  }

  public void setClientPort(Integer clientPort) {
    this.clientPort = clientPort;
  }

  public Integer getWrapperPort() {
    return wrapperPort;
  }

  public void setWrapperPort(Integer wrapperPort) {
    this.wrapperPort = wrapperPort;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public MetricsLevel getMetrics() {
    return metrics;
  }

  public void setMetrics(MetricsLevel metrics) {
    this.metrics = metrics;
  }

  public ResourceRequirements getResources() {
    return resources;
  }

  public void setResources(ResourceRequirements resources) {
    this.resources = resources;
  }

  public TLSConfig getClientUrlTls() {
    return clientUrlTls;
  }

  public void setClientUrlTls(TLSConfig clientUrlTls) {
    this.clientUrlTls = clientUrlTls;
  }

  public PeerTLSConfig getPeerUrlTls() {
    return peerUrlTls;
  }

  public void setPeerUrlTls(PeerTLSConfig peerUrlTls) {
    this.peerUrlTls = peerUrlTls;
  }

  public GoDuration getEtcdDefragTimeout() {
    return etcdDefragTimeout;
  }

  public void setEtcdDefragTimeout(GoDuration etcdDefragTimeout) {
    this.etcdDefragTimeout = etcdDefragTimeout;
  }

  public GoDuration getHeartbeatDuration() {
    return heartbeatDuration;
  }

  public void setHeartbeatDuration(GoDuration heartbeatDuration) {
    this.heartbeatDuration = heartbeatDuration;
  }

  public ClientService getClientService() {
    return clientService;
  }

  public void setClientService(ClientService clientService) {
    this.clientService = clientService;
  }

  public SecretReference getAuthSecretRef() {
    return authSecretRef;
  }

  public void setAuthSecretRef(SecretReference authSecretRef) {
    this.authSecretRef = authSecretRef;
  }

  public String getVersion() {
    return version;
  }

  public void setVersion(String version) {
    this.version = version;
  }

  public Boolean getEnableGRPCGateway() {
    return enableGRPCGateway;
  }

  public void setEnableGRPCGateway(Boolean enableGRPCGateway) {
    this.enableGRPCGateway = enableGRPCGateway;
  }

  public BboltFreelistType getBackendBboltFreelistType() {
    return backendBboltFreelistType;
  }

  public void setBackendBboltFreelistType(BboltFreelistType backendBboltFreelistType) {
    this.backendBboltFreelistType = backendBboltFreelistType;
  }

  public BootstrapWithExistingCluster getBootstrapWithExistingCluster() {
    return bootstrapWithExistingCluster;
  }

  public void setBootstrapWithExistingCluster(
      BootstrapWithExistingCluster bootstrapWithExistingCluster) {
    this.bootstrapWithExistingCluster = bootstrapWithExistingCluster;
  }

  public List<AdditionalPeerUrls> getAdditionalAdvertisePeerURLs() {
    return additionalAdvertisePeerURLs;
  }

  public void setAdditionalAdvertisePeerURLs(List<AdditionalPeerUrls> additionalAdvertisePeerURLs) {
    this.additionalAdvertisePeerURLs = additionalAdvertisePeerURLs;
  }
}
