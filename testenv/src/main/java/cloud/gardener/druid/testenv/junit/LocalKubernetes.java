package cloud.gardener.druid.testenv.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against the JVM's shared local Kubernetes (started on first use, stopped
 * when the JVM's tests end) in a fresh namespace of its own, deleted afterwards. Test and
 * lifecycle methods may take a {@code KubernetesClient} (bound to that namespace), a
 * {@link cloud.gardener.druid.testenv.LocalCluster} and a {@link TestNamespace}. After the
 * class, it fails if any process of the cluster (control plane or pod) had a socket on a
 * non-loopback address at any sample so far (see
 * {@link cloud.gardener.druid.testenv.process.ConnectionAudit}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(LocalKubernetesExtension.class)
public @interface LocalKubernetes {
}
