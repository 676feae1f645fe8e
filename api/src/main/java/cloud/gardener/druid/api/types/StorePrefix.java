package cloud.gardener.druid.api.types;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rule for {@code store.prefix}: a relative path of non-empty segments, none of them
 * {@code .} or {@code ..}, no backslash. Checked at admission (CEL) and again by the agent
 * when it opens a store, so a prefix can never reach outside its container.
 */
public final class StorePrefix {

  private static final String SEGMENT =
      "([^/\\\\.][^/\\\\]*|[.][^/\\\\.][^/\\\\]*|[.][.][^/\\\\]+)";

  /** RE2- and Java-compatible; written for a CEL raw string (no escaping). */
  public static final String PATTERN = "^" + SEGMENT + "(/" + SEGMENT + ")*$";

  public static final String RULE = "self.matches(r'" + PATTERN + "')";

  public static final String MESSAGE = "must be a relative path of non-empty segments:"
      + " no leading '/', no '.' or '..' segment, no '//' or trailing '/', no backslash";

  private static final Pattern PREFIX = Pattern.compile(PATTERN);

  private StorePrefix() {
  }

  /** Why {@code prefix} is refused, or empty when it is a valid prefix. */
  public static Optional<String> problem(String prefix) {
    if (prefix == null || prefix.isEmpty()) {
      return Optional.of("must not be empty");
    }
    return PREFIX.matcher(prefix).matches() ? Optional.empty() : Optional.of(MESSAGE);
  }
}
