package cloud.gardener.druid.cli;

import picocli.CommandLine.IVersionProvider;

/** Reports the version of the jar (from its manifest when packaged). */
final class Version implements IVersionProvider {

  @Override
  public String[] getVersion() {
    String v = Druid.class.getPackage().getImplementationVersion();
    return new String[] {"druid " + (v == null ? "development build" : v),
        "Java " + System.getProperty("java.version")};
  }
}
