package cloud.gardener.druid.api.types;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StorePrefixTest {

  @ParameterizedTest
  @ValueSource(strings = {"etcd-main", "default/etcd-main", "shoot--dev--a/etcd-main/v1",
      ".hidden", "..dots", "...", "a..b", "a/.b/c", "a b"})
  void relativePathsAreValidPrefixes(String prefix) {
    assertThat(StorePrefix.problem(prefix)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"/etc", "/", "..", "../x", "a/../../b", "a/..", ".", "./a", "a/./b",
      "a//b", "a/", "a\\..\\b", "..\\x", "c:\\x"})
  void absoluteEmptyDotAndBackslashPathsAreRefused(String prefix) {
    assertThat(StorePrefix.problem(prefix)).contains(StorePrefix.MESSAGE);
  }

  @ParameterizedTest
  @ValueSource(strings = {""})
  void anEmptyPrefixIsRefused(String prefix) {
    assertThat(StorePrefix.problem(prefix)).contains("must not be empty");
    assertThat(StorePrefix.problem(null)).contains("must not be empty");
  }
}
