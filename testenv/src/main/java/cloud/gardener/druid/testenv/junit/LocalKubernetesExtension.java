package cloud.gardener.druid.testenv.junit;

import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.process.ConnectionAudit;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** See {@link LocalKubernetes}. */
public final class LocalKubernetesExtension implements BeforeAllCallback, AfterAllCallback,
    ParameterResolver {

  private static final ExtensionContext.Namespace STORE =
      ExtensionContext.Namespace.create(LocalKubernetesExtension.class);
  private static final Duration NAMESPACE_READY = Duration.ofSeconds(60);

  /** A class's namespace and its client, closed (and the namespace deleted) after the class. */
  private record ClassScope(TestNamespace namespace, KubernetesClient client)
      implements AutoCloseable {
    @Override
    public void close() {
      client.namespaces().withName(namespace.name()).delete();
      client.close();
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    LocalCluster cluster = cluster(context);
    String name = namespaceName(context.getRequiredTestClass());
    cluster.client().namespaces().resource(new NamespaceBuilder().withNewMetadata()
        .withName(name).addToLabels("druid.gardener.cloud/test-class",
            context.getRequiredTestClass().getSimpleName()).endMetadata().build()).create();
    // pod admission needs the namespace's default ServiceAccount
    cluster.client().serviceAccounts().inNamespace(name).withName("default")
        .waitUntilCondition(sa -> sa != null, NAMESPACE_READY.toSeconds(), TimeUnit.SECONDS);
    context.getStore(STORE).put(ClassScope.class, new ClassScope(new TestNamespace(name),
        cluster.newClient(name)));
  }

  /** Deletes the namespace and fails the class if any process broke the loopback rule. */
  @Override
  public void afterAll(ExtensionContext context) {
    ClassScope scope = context.getStore(STORE).remove(ClassScope.class, ClassScope.class);
    if (scope != null) {
      scope.close();
    }
    ConnectionAudit audit = cluster(context).connectionAudit();
    audit.sample();
    if (!audit.violations().isEmpty()) {
      throw new AssertionError("processes of the local cluster used non-loopback addresses: "
          + audit.violations());
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == KubernetesClient.class || type == LocalCluster.class
        || type == TestNamespace.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (type == LocalCluster.class) {
      return cluster(context);
    }
    ClassScope scope = context.getStore(STORE).get(ClassScope.class, ClassScope.class);
    if (scope == null) {
      throw new IllegalStateException("no namespace yet: take a KubernetesClient or"
          + " TestNamespace in a test, @BeforeAll or @BeforeEach method, not a constructor");
    }
    return type == TestNamespace.class ? scope.namespace() : scope.client();
  }

  private static LocalCluster cluster(ExtensionContext context) {
    return context.getRoot().getStore(STORE)
        .getOrComputeIfAbsent(SharedCluster.Use.class, k -> SharedCluster.use(),
            SharedCluster.Use.class)
        .cluster();
  }

  static String namespaceName(Class<?> testClass) {
    String base = testClass.getSimpleName().replaceAll("([a-z0-9])([A-Z])", "$1-$2")
        .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    if (base.length() > 50) {
      base = base.substring(0, 50);
    }
    return base.replaceAll("-+$", "") + "-" + UUID.randomUUID().toString().substring(0, 5);
  }
}
