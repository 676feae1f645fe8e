package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.UndeleteConfig;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every Job that starts an etcd from the Etcd's backups (the restored database keeps etcd's
 * authentication) gets the etcd user's files as the members do, and none without the field.
 */
class EtcdAuthSecretTest {

  private final OperatorSettings settings = OperatorSettings.defaults();

  private Map<String, Function<Etcd, Job>> jobs() {
    UndeleteConfig undelete = new UndeleteConfig();
    undelete.setPrefix("/a/");
    undelete.setTime("2026-12-04T23:15:00Z");
    return Map.of(
        "drill", e -> BackupDrillJobBuilder.build(e, settings, Duration.ofMinutes(30)),
        "compaction", e -> CompactionJobBuilder.build(e, settings),
        "undelete", e -> TimeTravelJobBuilder.undelete(e, undelete, settings,
            Duration.ofMinutes(30)));
  }

  @Test
  void jobsRestoringTheBackupsAuthenticateAsTheEtcdUser() {
    Etcd plain = Etcds.etcd("main", 3);
    Etcd withUser = Etcds.etcd("main", 3);
    withUser.getSpec().getEtcd().setAuthSecretRef(new SecretReference("etcd-user", null));
    jobs().forEach((kind, build) -> {
      PodSpec without = build.apply(plain).getSpec().getTemplate().getSpec();
      assertThat(without.getVolumes()).as(kind).noneMatch(v -> v.getName().equals("etcd-auth"));
      assertThat(without.getContainers().get(0).getArgs()).as(kind)
          .noneMatch(a -> a.startsWith("--etcd-auth-dir"));

      PodSpec with = build.apply(withUser).getSpec().getTemplate().getSpec();
      assertThat(with.getVolumes()).as(kind).filteredOn(v -> v.getName().equals("etcd-auth"))
          .singleElement().satisfies(v -> assertThat(v.getSecret().getSecretName())
              .isEqualTo("etcd-user"));
      var container = with.getContainers().get(0);
      assertThat(container.getVolumeMounts()).as(kind)
          .filteredOn(m -> m.getName().equals("etcd-auth"))
          .extracting(m -> m.getMountPath() + ":" + m.getReadOnly())
          .containsExactly(MemberLayout.ETCD_AUTH_DIR + ":true");
      assertThat(container.getArgs()).as(kind)
          .containsAll(List.of("--etcd-auth-dir=" + MemberLayout.ETCD_AUTH_DIR));
    });
  }
}
