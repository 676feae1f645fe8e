package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The answer of any path that failed or refused: why. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiError(String error) {
}
