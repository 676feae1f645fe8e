package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import java.util.Optional;

/** Whether the cluster may lose one member for an update now. Injectable for tests. */
public interface ClusterHealth {

  /** Empty when every wanted member is ready, has a leader and is in sync; else why not. */
  Optional<String> whyNotSafeToRoll(ClusterSnapshot snapshot);
}
