package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * The JSON of the agent API's bodies: one mapping for the agent that writes them and the
 * operator that reads them.
 */
public final class AgentJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private AgentJson() {
  }

  public static byte[] write(Object body) throws IOException {
    return MAPPER.writeValueAsBytes(body);
  }

  /** Fields the record does not know are ignored: the agent may be newer or older. */
  public static <T> T read(String body, Class<T> type) throws IOException {
    return MAPPER.readValue(body, type);
  }
}
