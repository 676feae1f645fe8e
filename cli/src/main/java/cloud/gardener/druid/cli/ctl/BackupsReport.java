package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.api.ByteSizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/** The table of {@code backups}: one row per snapshot, then what the store holds in all. */
final class BackupsReport {

  private BackupsReport() {
  }

  static String render(String location, List<Snapshot> snapshots, List<OptionalLong> sizes) {
    if (snapshots.isEmpty()) {
      return "No snapshots in " + location + ".\n";
    }
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("KIND", "START-REVISION", "END-REVISION", "CREATED", "SIZE",
        "COMPRESSION", "NAME"));
    long total = 0;
    int full = 0;
    for (int i = 0; i < snapshots.size(); i++) {
      Snapshot s = snapshots.get(i);
      full += s.isFull() ? 1 : 0;
      total += sizes.get(i).orElse(0);
      rows.add(List.of(s.isFull() ? (s.isFinal() ? "Full(final)" : "Full") : "Delta",
          String.valueOf(s.startRevision()), String.valueOf(s.endRevision()),
          s.createdOn().toString(),
          sizes.get(i).isPresent() ? bytes(sizes.get(i).getAsLong()) : "-",
          s.compression().name().toLowerCase(Locale.ROOT), s.fileName()));
    }
    return EtcdStatusReport.table(rows) + "\n" + full + " full and " + (snapshots.size() - full)
        + " delta snapshots, " + bytes(total) + " in " + location + "; newest revision "
        + snapshots.get(snapshots.size() - 1).endRevision() + "\n";
  }

  static String bytes(long n) {
    return ByteSizes.of(n);
  }
}
