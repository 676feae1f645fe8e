package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.agent.snapshot.SnapshotScheduler;
import cloud.gardener.druid.agent.store.SnapshotStore;
import java.util.Optional;

/** The agent's snapshots and backup store, as the agent API triggers and lists them. */
public interface Backups {

  /** Empty without a backup store or while etcd does not run. */
  Optional<SnapshotScheduler> scheduler();

  /** Empty without a backup store. */
  Optional<SnapshotStore> store();
}
