package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.platform.commons.support.AnnotationSupport;

/** See {@link WithOperator}. */
public final class OperatorExtension implements BeforeAllCallback, AfterAllCallback,
    ParameterResolver, TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {

  private static final ExtensionContext.Namespace STORE =
      ExtensionContext.Namespace.create(OperatorExtension.class);

  /** The class's namespace on the cluster, as {@code @LocalKubernetes} resolves them. */
  private record Place(LocalCluster cluster, TestNamespace namespace) {
  }

  /** A class's running replicas and where they run; stopped after the class. */
  private record Running(OperatorReplicas replicas, Place place) implements AutoCloseable {
    @Override
    public void close() {
      replicas.all().forEach(OperatorHarness::close);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    WithOperator options = AnnotationSupport.findAnnotation(context.getRequiredTestClass(),
        WithOperator.class).orElseThrow(() -> new IllegalStateException(
            context.getRequiredTestClass() + " is not annotated @WithOperator"));
    Place place = (Place) context.getExecutableInvoker().invoke(placeMethod(), null);
    List<OperatorHarness> started = new ArrayList<>();
    try {
      for (int i = 0; i < options.replicas(); i++) {
        started.add(OperatorHarness.start(place.cluster(), place.namespace().name(),
            options.autoReconcile(), options.leaderElection()));
      }
    } catch (IOException | RuntimeException e) {
      started.forEach(OperatorHarness::close);
      throw e;
    }
    context.getStore(STORE).put(Running.class,
        new Running(new OperatorReplicas(started), place));
  }

  /** Resolved by {@code @LocalKubernetes}'s parameter resolver, which made the namespace. */
  private static Place place(LocalCluster cluster, TestNamespace namespace) {
    return new Place(cluster, namespace);
  }

  private static Method placeMethod() {
    try {
      return OperatorExtension.class.getDeclaredMethod("place", LocalCluster.class,
          TestNamespace.class);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    Running running = context.getStore(STORE).remove(Running.class, Running.class);
    if (running != null) {
      running.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == OperatorHarness.class || type == OperatorReplicas.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Running running = running(context);
    return parameter.getParameter().getType() == OperatorReplicas.class ? running.replicas()
        : running.replicas().get(0);
  }

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable throwable)
      throws Throwable {
    throw withDiagnostics(context, throwable);
  }

  @Override
  public void handleBeforeAllMethodExecutionException(ExtensionContext context,
      Throwable throwable) throws Throwable {
    throw withDiagnostics(context, throwable);
  }

  @Override
  public void handleBeforeEachMethodExecutionException(ExtensionContext context,
      Throwable throwable) throws Throwable {
    throw withDiagnostics(context, throwable);
  }

  private static Throwable withDiagnostics(ExtensionContext context, Throwable throwable) {
    Running running = context.getStore(STORE).get(Running.class, Running.class);
    if (running != null) {
      try {
        throwable.addSuppressed(Diagnostics.of(running.place().cluster(),
            running.place().namespace().name()));
      } catch (RuntimeException e) {
        throwable.addSuppressed(e);
      }
    }
    return throwable;
  }

  private static Running running(ExtensionContext context) {
    Running running = context.getStore(STORE).get(Running.class, Running.class);
    if (running == null) {
      throw new IllegalStateException("no operator yet: take an OperatorHarness in a test,"
          + " @BeforeAll or @BeforeEach method, not a constructor");
    }
    return running;
  }
}
