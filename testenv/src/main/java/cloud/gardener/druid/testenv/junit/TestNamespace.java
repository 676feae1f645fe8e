package cloud.gardener.druid.testenv.junit;

/** The namespace a {@link LocalKubernetes} test class runs in. */
public record TestNamespace(String name) {
}
