package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.snapshot.EtcdSnapshotHash;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link DeltaBatcher} needs to count a replay's transactions - each event's revision,
 * key and value length - read from a delta's JSON by one plain scan, without decoding values or
 * building the parser's objects: the count runs before {@code etcdutl} may start, in a JVM
 * that has not compiled a JSON parser yet, and a small loop is compiled within milliseconds.
 *
 * <p>The events answered have the real key and modification revision, and a value of the
 * right length whose bytes are meaningless (zeros, shared between events). The scan takes the
 * compact JSON that etcd-backup-restore and this agent write; anything else it does not take
 * for sure (an escape in a name, key or value, a non-integer revision, a "kv" twice, a value
 * that is not padded base64) makes it answer empty, and the caller parses the delta with
 * {@link DeltaFormat#read} instead. Whatever it answers, the replay's own parse decides the
 * content, and the restore checks that it took exactly the transactions counted.
 */
final class DeltaOutline {

  private static final Base64.Decoder BASE64 = Base64.getDecoder();

  /** Thrown where the scan leaves the delta to the full parser. */
  private static final class NotPlain extends Exception {
    NotPlain() {
      super(null, null, false, false);
    }
  }

  private static final NotPlain NOT_PLAIN = new NotPlain();

  private final byte[] json;
  private final int end;
  private final Map<Integer, byte[]> zeros;
  private int pos;

  private DeltaOutline(byte[] delta, int length, Map<Integer, byte[]> zeros) {
    this.json = delta;
    this.end = length - EtcdSnapshotHash.TRAILER;
    this.zeros = zeros;
  }

  /**
   * The outline of a delta's first {@code length} bytes (its JSON and the SHA-256 trailer, not
   * checked here), empty
   * when the scan does not take its JSON. {@code zeros}: value arrays by length, shared between
   * the events (the caller bounds how long it keeps them).
   */
  static Optional<List<DeltaEvent>> read(byte[] delta, int length,
      Map<Integer, byte[]> zeros) {
    try {
      return Optional.of(new DeltaOutline(delta, length, zeros).events());
    } catch (NotPlain | IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
      return Optional.empty();
    }
  }

  static Map<Integer, byte[]> newZeros() {
    return new HashMap<>();
  }

  private List<DeltaEvent> events() throws NotPlain {
    List<DeltaEvent> events = new ArrayList<>();
    expect('[');
    if (peek() == ']') {
      pos++;
    } else {
      do {
        events.add(wrapper());
      } while (separator(']'));
    }
    skipWhitespace();
    if (pos != end) {
      throw NOT_PLAIN;
    }
    return events;
  }

  /** {@code {"etcdEvent": {...}, "time": ...}}: the last etcdEvent counts, as in the parser. */
  private DeltaEvent wrapper() throws NotPlain {
    DeltaEvent event = null;
    expect('{');
    if (peek() == '}') {
      throw NOT_PLAIN;
    }
    do {
      String name = name();
      if (name.equals("etcdEvent")) {
        event = etcdEvent();
      } else {
        skipValue();
      }
    } while (separator('}'));
    if (event == null) {
      throw NOT_PLAIN;
    }
    return event;
  }

  private DeltaEvent etcdEvent() throws NotPlain {
    byte[] key = new byte[0];
    int valueLength = 0;
    long modRevision = 0;
    boolean kvSeen = false;
    expect('{');
    if (peek() == '}') {
      pos++;
    } else {
      do {
        if (!name().equals("kv")) {
          skipValue();
          continue;
        }
        if (kvSeen) {
          throw NOT_PLAIN;
        }
        kvSeen = true;
        expect('{');
        if (peek() == '}') {
          pos++;
          continue;
        }
        do {
          switch (name()) {
            case "key" -> key = BASE64.decode(plainString());
            case "value" -> valueLength = decodedLength(plainStringLength());
            case "mod_revision" -> modRevision = integer();
            default -> skipValue();
          }
        } while (separator('}'));
      } while (separator('}'));
    }
    return new DeltaEvent(false, key, zeros.computeIfAbsent(valueLength, byte[]::new), 0,
        modRevision, 0, 0, Instant.EPOCH);
  }

  /** Base64 with padding, as Go and this agent write it; the decoder takes nothing else. */
  private int decodedLength(int start) throws NotPlain {
    int length = pos - 1 - start;
    if (length % 4 != 0) {
      throw NOT_PLAIN;
    }
    int padding = 0;
    while (padding < Math.min(2, length) && json[pos - 2 - padding] == '=') {
      padding++;
    }
    return length / 4 * 3 - padding;
  }

  private long integer() throws NotPlain {
    skipWhitespace();
    int start = pos;
    if (json[pos] == '-') {
      pos++;
    }
    long value = 0;
    int digits = 0;
    while (pos < end && json[pos] >= '0' && json[pos] <= '9') {
      value = value * 10 + (json[pos++] - '0');
      digits++;
    }
    if (digits == 0 || digits > 18) {
      throw NOT_PLAIN;
    }
    return json[start] == '-' ? -value : value;
  }

  private String name() throws NotPlain {
    String name = new String(plainString(), StandardCharsets.US_ASCII);
    expect(':');
    return name;
  }

  private byte[] plainString() throws NotPlain {
    int start = plainStringLength();
    return java.util.Arrays.copyOfRange(json, start, pos - 1);
  }

  /** Skips a string without escapes; answers where its content starts (it ends at pos - 1). */
  private int plainStringLength() throws NotPlain {
    expect('"');
    int start = pos;
    while (json[pos] != '"') {
      if (json[pos] == '\\' || (json[pos] & 0xff) < 0x20) {
        throw NOT_PLAIN;
      }
      pos++;
    }
    pos++;
    return start;
  }

  private void skipValue() throws NotPlain {
    skipWhitespace();
    byte b = json[pos];
    if (b == '{' || b == '[') {
      skipContainer();
    } else if (b == '"') {
      skipString();
    } else {
      while (pos < end && "-+.eE0123456789truefalsn".indexOf(json[pos]) >= 0) {
        pos++;
      }
    }
  }

  /** Any object or array, strings with escapes included. */
  private void skipContainer() throws NotPlain {
    int depth = 0;
    do {
      byte b = json[pos];
      if (b == '"') {
        skipString();
        continue;
      }
      if (b == '{' || b == '[') {
        depth++;
      } else if (b == '}' || b == ']') {
        depth--;
      }
      pos++;
    } while (depth > 0);
  }

  private void skipString() {
    pos++;
    while (json[pos] != '"') {
      pos += json[pos] == '\\' ? 2 : 1;
    }
    pos++;
  }

  /** After a member: true after a comma, false after {@code close}. */
  private boolean separator(char close) throws NotPlain {
    byte b = peek();
    pos++;
    if (b == ',') {
      return true;
    }
    if (b == close) {
      return false;
    }
    throw NOT_PLAIN;
  }

  private void expect(char c) throws NotPlain {
    if (peek() != c) {
      throw NOT_PLAIN;
    }
    pos++;
  }

  private byte peek() {
    skipWhitespace();
    return json[pos];
  }

  private void skipWhitespace() {
    while (pos < end && (json[pos] == ' ' || json[pos] == '\n' || json[pos] == '\r'
        || json[pos] == '\t')) {
      pos++;
    }
  }
}
