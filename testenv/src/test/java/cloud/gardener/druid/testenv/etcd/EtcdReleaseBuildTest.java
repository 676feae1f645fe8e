package cloud.gardener.druid.testenv.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The etcd each minor's build pins (the go.mod require line build.sh reads) is the patch the
 * operator names for it (api's EtcdRelease): the image ships exactly what members are told
 * to run.
 */
class EtcdReleaseBuildTest {

  private static final Pattern SERVER = Pattern.compile(
      "(?m)^\\s*go\\.etcd\\.io/etcd/server/v3 v(\\S+)$");

  @ParameterizedTest
  @EnumSource(EtcdRelease.class)
  void theBuildPinsTheVersionTheOperatorNames(EtcdRelease release) throws Exception {
    Path root = ControlPlaneBinaries.repoRoot();
    Path goMod = release == EtcdRelease.V3_6 ? root.resolve("testenv/controlplane/go.mod")
        : root.resolve("testenv/etcd/v" + release.minor() + "/go.mod");
    Matcher m = SERVER.matcher(Files.readString(goMod));
    assertThat(m.find()).as("a require line of go.etcd.io/etcd/server/v3 in " + goMod).isTrue();
    assertThat(m.group(1)).isEqualTo(release.version());
  }
}
