package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against the shared local Kubernetes ({@link LocalKubernetes}: a namespace
 * of its own) with the operator started in the test JVM for that namespace before the class
 * and stopped after it (after the class's own {@code @AfterAll} methods, so they can still
 * rely on it). Test and lifecycle methods may take the {@link OperatorHarness} (the first
 * replica) or all {@link OperatorReplicas}. A failing test or {@code @BeforeAll}/
 * {@code @BeforeEach} method gets the namespace's diagnostics ({@link Diagnostics}) attached
 * as a suppressed exception.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@LocalKubernetes
@ExtendWith(OperatorExtension.class)
public @interface WithOperator {

  /** Whether spec changes are reconciled without the reconcile annotation. */
  boolean autoReconcile() default true;

  /** Whether the replicas elect a leader (the lease lives in the test namespace). */
  boolean leaderElection() default false;

  /** How many operator replicas run. */
  int replicas() default 1;
}
