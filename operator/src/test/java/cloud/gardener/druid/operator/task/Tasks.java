package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.DefragmentConfig;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskSpec;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig;
import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig;
import cloud.gardener.druid.api.v1alpha1.ReplaceMemberVolumeConfig;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.function.Consumer;

/** EtcdOpsTask objects for unit tests. */
final class Tasks {

  private Tasks() {
  }

  static EtcdOpsTask task(String name, String etcd, String created,
      Consumer<EtcdOpsTaskConfig> config) {
    EtcdOpsTask t = new EtcdOpsTask();
    t.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").withUid("uid-" + name)
        .withCreationTimestamp(created).build());
    EtcdOpsTaskSpec spec = new EtcdOpsTaskSpec();
    spec.setEtcdName(etcd);
    EtcdOpsTaskConfig c = new EtcdOpsTaskConfig();
    config.accept(c);
    spec.setConfig(c);
    t.setSpec(spec);
    return t;
  }

  static EtcdOpsTask snapshot(String name, String etcd, String created) {
    return task(name, etcd, created, c -> {
      OnDemandSnapshotConfig s = new OnDemandSnapshotConfig();
      s.setType(OnDemandSnapshotConfig.SnapshotType.FULL);
      c.setOnDemandSnapshot(s);
    });
  }

  static EtcdOpsTask defragment(String name, String etcd, String created) {
    return task(name, etcd, created, c -> c.setDefragment(new DefragmentConfig()));
  }

  static EtcdOpsTask replace(String name, String etcd, String member) {
    return task(name, etcd, "2026-01-01T00:00:00Z", c -> {
      ReplaceMemberVolumeConfig r = new ReplaceMemberVolumeConfig();
      r.setMemberName(member);
      c.setReplaceMemberVolume(r);
    });
  }

  static EtcdOpsTask recover(String name, String etcd, RecoverFromQuorumLossConfig.Source source,
      String member) {
    return task(name, etcd, "2026-01-01T00:00:00Z", c -> {
      RecoverFromQuorumLossConfig r = new RecoverFromQuorumLossConfig();
      r.setSource(source);
      r.setMemberName(member);
      c.setRecoverFromQuorumLoss(r);
    });
  }

  static EtcdOpsTask withState(EtcdOpsTask t, String state, String startedAt) {
    EtcdOpsTaskStatus s = new EtcdOpsTaskStatus();
    s.setState(state);
    s.setStartedAt(startedAt);
    s.setLastTransitionTime(startedAt);
    t.setStatus(s);
    return t;
  }
}
