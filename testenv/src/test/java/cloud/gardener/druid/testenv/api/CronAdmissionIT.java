package cloud.gardener.druid.testenv.api;

import static cloud.gardener.druid.testenv.api.DruidResources.assertAdmitted;
import static cloud.gardener.druid.testenv.api.DruidResources.assertRejected;
import static cloud.gardener.druid.testenv.api.DruidResources.etcd;
import static cloud.gardener.druid.testenv.api.DruidResources.map;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The CRD admits exactly the schedules robfig/cron's standard parser accepts, as our parser
 * does: every case of api/src/test/resources/cron-cases.txt against the real API server, on
 * both schedule fields. Nothing admitted is later refused by the operator.
 */
@LocalKubernetes
class CronAdmissionIT {

  private static final Pattern LINE = Pattern.compile(
      "^(valid|invalid|never)\\s*\\|\\s*(\"(?:[^\"\\\\]|\\\\.)*\").*$");

  record Case(boolean valid, String schedule) {
  }

  @BeforeAll
  static void installCrds(KubernetesClient client) {
    DruidResources.installCrds(client);
  }

  @Test
  void apiServerAdmitsExactlyWhatTheParserAccepts(KubernetesClient client) throws IOException {
    List<Case> cases = cases();
    assertThat(cases).hasSizeGreaterThan(80);
    int i = 0;
    for (Case c : cases) {
      assertThat(CronSchedule.validate(c.schedule()).isEmpty()).as(c.schedule())
          .isEqualTo(c.valid());
      String name = "cron-" + i++;
      var full = etcd(name, s -> map(s, "backup").put("fullSnapshotSchedule", c.schedule()));
      var defrag = etcd(name, s -> map(s, "etcd").put("defragmentationSchedule", c.schedule()));
      if (c.valid()) {
        assertAdmitted(client, full);
        assertAdmitted(client, defrag);
      } else {
        assertRejected(client, full, "spec.backup.fullSnapshotSchedule");
        assertRejected(client, defrag, "spec.etcd.defragmentationSchedule");
      }
    }
  }

  static List<Case> cases() throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<Case> cases = new ArrayList<>();
    for (String line : Files.readAllLines(ControlPlaneBinaries.repoRoot()
        .resolve("api/src/test/resources/cron-cases.txt"))) {
      Matcher m = LINE.matcher(line);
      if (m.matches()) {
        cases.add(new Case(!m.group(1).equals("invalid"),
            json.readValue(m.group(2), String.class)));
      }
    }
    return cases;
  }
}
