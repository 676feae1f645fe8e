package cloud.gardener.druid.operator.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Stable short hashes of desired state: equal input, equal revision, on every JVM. */
public final class Revisions {

  private static final ObjectMapper CANONICAL = JsonMapper.builder()
      .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
      .configure(com.fasterxml.jackson.databind.MapperFeature.SORT_PROPERTIES_ALPHABETICALLY, true)
      .build();

  private Revisions() {
  }

  /** A 16-hex-digit hash of the canonical JSON form of {@code value}. */
  public static String of(Object value) {
    try {
      Object tree = Serialization.jsonMapper().convertValue(value, Object.class);
      return sha256(CANONICAL.writeValueAsString(tree)).substring(0, 16);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot hash " + value.getClass().getSimpleName(), e);
    }
  }

  public static String sha256(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
