package cloud.gardener.druid.operator.capacity;

import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.api.types.Quantities;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The space of an Etcd's members as their agents last measured it, and when the quota and the
 * volumes run out at the current growth (pure). Only members whose agent reported a space count.
 */
public record SpaceForecast(List<MemberForecast> members) {

  public static SpaceForecast of(ClusterSnapshot s) {
    return new SpaceForecast(s.wanted().stream()
        .flatMap(m -> m.agent().flatMap(AgentView::space).map(sp -> of(m, sp)).stream())
        .toList());
  }

  static MemberForecast of(MemberObservation m, MemberSpace sp) {
    long claim = m.pvc().map(SpaceForecast::claimBytes).orElse(0L);
    long fs = sp.volumeCapacityBytes();
    long volume = claim > 0 && (fs <= 0 || claim < fs) ? claim : fs;
    long free = sp.volumeFreeBytes();
    if (claim > 0) {
      free = Math.min(fs > 0 ? free : Long.MAX_VALUE, claim - sp.dataDirBytes());
    }
    return new MemberForecast(m.ordinal(), m.name(), m.isLeader(), sp, volume,
        Math.max(0, free));
  }

  /** The claim's capacity as bound, else as requested; 0 when it says neither. */
  static long claimBytes(PersistentVolumeClaim pvc) {
    Optional<Quantity> q = Optional.ofNullable(pvc.getStatus())
        .map(st -> st.getCapacity()).map(c -> c.get("storage"))
        .or(() -> Optional.ofNullable(pvc.getSpec()).map(sp -> sp.getResources())
            .map(r -> r.getRequests()).map(r -> r.get("storage")));
    return q.map(Quantities::bytesLong).orElse(0L);
  }

  public boolean reported() {
    return !members.isEmpty();
  }

  public long dbSizeBytes() {
    return max(m -> m.space().dbSizeBytes());
  }

  public long dbSizeInUseBytes() {
    return max(m -> m.space().dbSizeInUseBytes());
  }

  /** The smallest quota a member runs with (members differ only while a new one rolls out). */
  public long quotaBytes() {
    return members.stream().mapToLong(m -> m.space().quotaBytes()).min().orElse(0);
  }

  public long volumeBytes() {
    return members.stream().mapToLong(MemberForecast::volumeBytes).min().orElse(0);
  }

  public long volumeFreeBytes() {
    return members.stream().mapToLong(MemberForecast::volumeFreeBytes).min().orElse(0);
  }

  public double writesPerSecond() {
    return members.stream().mapToDouble(m -> m.space().writesPerSecond()).max().orElse(0);
  }

  public double growthBytesPerSecond() {
    return members.stream().mapToDouble(m -> m.space().dbGrowthBytesPerSecond()).max()
        .orElse(0);
  }

  public Optional<Duration> timeToQuota() {
    return soonest(MemberForecast::timeToQuota);
  }

  public Optional<Duration> inUseTimeToQuota() {
    return soonest(MemberForecast::inUseTimeToQuota);
  }

  public Optional<Duration> timeToVolumeFull() {
    return soonest(MemberForecast::timeToVolumeFull);
  }

  /** The members etcd's NOSPACE alarm is raised on. */
  public List<MemberForecast> noSpace() {
    return members.stream().filter(m -> m.space().noSpace()).toList();
  }

  /** The data directory beside the database (WAL, raft snapshots), the most of any member. */
  public long overheadBytes() {
    return max(m -> Math.max(0, m.space().dataDirBytes() - m.space().dbSizeBytes()));
  }

  /** The revision of the leader's sample (the newest a member has). */
  public long revision() {
    return max(m -> m.space().revision());
  }

  /** "45Mi of 64Mi (in use 12Mi)": the fullest member's database. */
  public String describe() {
    return Rounding.bytes(dbSizeBytes()) + " of the " + Rounding.bytes(quotaBytes())
        + " quota (in use " + Rounding.bytes(dbSizeInUseBytes()) + ")"
        + Rounding.forecast(timeToQuota()).map(t -> ", quota reached in ~" + t).orElse("")
        + Rounding.forecast(timeToVolumeFull()).map(t -> ", volume full in ~" + t).orElse("");
  }

  private Optional<Duration> soonest(Function<MemberForecast, Optional<Duration>> f) {
    return members.stream().map(f).flatMap(Optional::stream).min(Comparator.naturalOrder());
  }

  private long max(ToLongFunction<MemberForecast> f) {
    return members.stream().mapToLong(f).max().orElse(0);
  }
}
