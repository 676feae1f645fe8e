package cloud.gardener.druid.operator.capacity;

import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import java.util.List;

/** Fake clusters with members that report their space. */
final class SpacePlans {

  private SpacePlans() {
  }

  static FakeCluster cluster(int size, int leader) {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", size));
    for (int i = 0; i < size; i++) {
      c.add(i, "new").role = i == leader ? "Leader" : "Member";
    }
    return c;
  }

  /** The member after a defragmentation: its file is the pages in use, no growth measured yet. */
  static MemberSpace defragmented(MemberSpace s) {
    return new MemberSpace(s.dbSizeInUseBytes(), s.dbSizeInUseBytes(), s.quotaBytes(),
        s.volumeCapacityBytes(), s.volumeFreeBytes(), s.dataDirBytes(), s.writesPerSecond(), 0,
        0, 0, s.alarms(), s.revision());
  }

  static MemberSpace withAlarms(MemberSpace s, List<String> alarms) {
    return new MemberSpace(s.dbSizeBytes(), s.dbSizeInUseBytes(), s.quotaBytes(),
        s.volumeCapacityBytes(), s.volumeFreeBytes(), s.dataDirBytes(), s.writesPerSecond(),
        s.dbGrowthBytesPerSecond(), s.inUseGrowthBytesPerSecond(), s.windowSeconds(), alarms,
        s.revision());
  }
}
