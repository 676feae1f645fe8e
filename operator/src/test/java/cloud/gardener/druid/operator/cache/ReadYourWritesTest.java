package cloud.gardener.druid.operator.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReadYourWritesTest {

  @Test
  void aWriteIsSeenOnlyFromItsResourceVersionOn() {
    var written = new ReadYourWrites.Expectation.Present(Pod.class, "m-0", "120", false);
    assertThat(ReadYourWrites.met(written, Optional.of(pod("m-0", "u1", "119")))).isFalse();
    assertThat(ReadYourWrites.met(written, Optional.of(pod("m-0", "u1", "120")))).isTrue();
    assertThat(ReadYourWrites.met(written, Optional.of(pod("m-0", "u2", "300")))).isTrue();
    assertThat(ReadYourWrites.met(written, Optional.empty())).as("not cached yet").isFalse();
  }

  @Test
  void aTerminatingObjectMayBeGoneFromTheCache() {
    var terminating = new ReadYourWrites.Expectation.Present(Pod.class, "m-0", "120", true);
    assertThat(ReadYourWrites.met(terminating, Optional.empty())).isTrue();
    assertThat(ReadYourWrites.met(terminating, Optional.of(pod("m-0", "u1", "110")))).isFalse();
  }

  @Test
  void aDeletedObjectMustBeGoneOrReplaced() {
    var gone = new ReadYourWrites.Expectation.Gone(Pod.class, "m-0", "u1");
    assertThat(ReadYourWrites.met(gone, Optional.of(pod("m-0", "u1", "130")))).isFalse();
    assertThat(ReadYourWrites.met(gone, Optional.of(pod("m-0", "u2", "140")))).isTrue();
    assertThat(ReadYourWrites.met(gone, Optional.empty())).isTrue();
  }

  @Test
  void resourceVersionsCompareAsNumbersAndOpaqueOnesOnlyByEquality() {
    assertThat(ReadYourWrites.atLeast("1000", "999")).isTrue();
    assertThat(ReadYourWrites.atLeast("999", "1000")).isFalse();
    assertThat(ReadYourWrites.atLeast("abc", "abc")).isTrue();
    assertThat(ReadYourWrites.atLeast("abd", "abc")).isFalse();
    assertThat(ReadYourWrites.atLeast(null, "1")).isFalse();
  }

  private static Pod pod(String name, String uid, String resourceVersion) {
    return new PodBuilder().withNewMetadata().withName(name).withUid(uid)
        .withResourceVersion(resourceVersion).endMetadata().build();
  }
}
