package cloud.gardener.druid.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import cloud.gardener.druid.api.types.GoDuration;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Pattern;

/** How the agent follows etcd leadership. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LeaderElectionSpec {

  @SchemaFrom(type = String.class)
  @Pattern(GoDuration.PATTERN)
  private GoDuration reelectionPeriod;

  @SchemaFrom(type = String.class)
  @Pattern(GoDuration.PATTERN)
  private GoDuration etcdConnectionTimeout;

  public GoDuration getReelectionPeriod() {
    return reelectionPeriod;
  }

  public void setReelectionPeriod(GoDuration reelectionPeriod) {
    this.reelectionPeriod = reelectionPeriod;
  }

  public GoDuration getEtcdConnectionTimeout() {
    return etcdConnectionTimeout;
  }

  public void setEtcdConnectionTimeout(GoDuration etcdConnectionTimeout) {
    this.etcdConnectionTimeout = etcdConnectionTimeout;
  }
}
