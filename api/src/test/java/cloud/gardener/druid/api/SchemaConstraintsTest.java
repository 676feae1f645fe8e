package cloud.gardener.druid.api;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.types.StorePrefix;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generated schema carries the constraints that reject bad input at admission. The API
 * server itself is exercised against these CRDs in the testenv integration tests; here the
 * patterns and bounds are checked against good and bad values offline.
 */
class SchemaConstraintsTest {

  final CrdSchema etcd = CrdSchema.of("etcds");
  final CrdSchema opsTask = CrdSchema.of("etcdopstasks");

  @Test
  void replicasMustNotBeNegative() {
    JSONSchemaProps replicas = etcd.get("spec.replicas");
    assertThat(replicas.getMinimum()).isEqualTo(0.0);
    assertThat(replicas.getType()).isEqualTo("integer");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0 */1 * * *", "30 */4 * * *", "0 1 */3 * *", "*/5 * * * 1-5",
      "0 */24 * * *", "@daily", "@every 6h", "0 12 * * MON-FRI"})
  void cronPatternAcceptsStandardSchedules(String cron) {
    assertThat(matches(etcd.get("spec.backup.fullSnapshotSchedule").getPattern(), cron)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"every hour", "* * *", "0 */1 * * * * *", "", "0 1 2 3 $",
      "61 * * * *", "0 0 * * 7"})
  void cronPatternRejectsBadSchedules(String cron) {
    assertThat(matches(etcd.get("spec.backup.fullSnapshotSchedule").getPattern(), cron)).isFalse();
    assertThat(matches(etcd.get("spec.etcd.defragmentationSchedule").getPattern(), cron)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"16Gi", "500M", "1", "1.5", "100m", "1e3"})
  void quantityRuleAcceptsQuantities(String q) {
    assertThat(matches(quantityRegex("spec.storageCapacity"), q)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"12 GiB", "abc", "16gi", "-", "1Gi1"})
  void quantityRuleRejectsNonQuantities(String q) {
    for (String path : List.of("spec.storageCapacity", "spec.etcd.quota",
        "spec.backup.deltaSnapshotMemoryLimit")) {
      assertThat(matches(quantityRegex(path), q)).as(path + " " + q).isFalse();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"20 seconds", "1d", "s", "-1s"})
  void durationPatternRejectsNonDurations(String d) {
    assertThat(matches(etcd.get("spec.backup.deltaSnapshotPeriod").getPattern(), d)).isFalse();
  }

  @Test
  void opsTaskNeedsExactlyOneOperationAndKeepsItsEtcdName() {
    assertThat(rules(opsTask.get("spec.config")))
        .anySatisfy(rule -> assertThat(rule).contains(".filter(x, x).size() == 1"));
    assertThat(rules(opsTask.get("spec.etcdName"))).containsExactly("self == oldSelf");
  }

  @Test
  void memberNamePrefixIsImmutable() {
    assertThat(etcd.get("spec").getXKubernetesValidations())
        .extracting(ValidationRule::getMessage)
        .contains("spec.memberNamePrefix is immutable");
  }

  @Test
  void everyStorePrefixCarriesThePathRule() {
    CrdSchema copyTask = CrdSchema.of("etcdcopybackupstasks");
    for (JSONSchemaProps prefix : List.of(etcd.get("spec.backup.store.prefix"),
        copyTask.get("spec.sourceStore.prefix"), copyTask.get("spec.targetStore.prefix"))) {
      assertThat(rules(prefix)).containsExactly(StorePrefix.RULE);
      assertThat(prefix.getMaxLength()).isEqualTo(1024L);
    }
    String regex = StorePrefix.RULE.substring("self.matches(r'".length(),
        StorePrefix.RULE.length() - "')".length());
    assertThat(matches(regex, "default/etcd-main")).isTrue();
    assertThat(matches(regex, "../etcd-main")).isFalse();
    assertThat(matches(regex, "/etc")).isFalse();
  }

  private String quantityRegex(String path) {
    String rule = rules(etcd.get(path)).get(0);
    int start = rule.indexOf("matches('") + "matches('".length();
    return rule.substring(start, rule.lastIndexOf("')"));
  }

  private static List<String> rules(JSONSchemaProps props) {
    assertThat(props.getXKubernetesValidations()).isNotEmpty();
    return props.getXKubernetesValidations().stream().map(ValidationRule::getRule).toList();
  }

  private static boolean matches(String regex, String value) {
    return Pattern.compile(regex).matcher(value).find();
  }
}
