package cloud.gardener.druid.cli.shared;

import cloud.gardener.druid.operator.model.LocalStoreLayout;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --local-store-layout}: {@code per-namespace} or {@code shared}. */
public final class LocalStoreLayoutConverter implements ITypeConverter<LocalStoreLayout> {

  @Override
  public LocalStoreLayout convert(String value) {
    try {
      return LocalStoreLayout.of(value.trim());
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
