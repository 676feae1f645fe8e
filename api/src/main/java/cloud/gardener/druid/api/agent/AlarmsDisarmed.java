package cloud.gardener.druid.api.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * The answer of {@link AgentApi#CLUSTER_ALARMS_DISARM}: the alarms disarmed ("NOSPACE on
 * 8e9e05c52164694d"); empty when none was raised.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AlarmsDisarmed(List<String> disarmed) {
}
