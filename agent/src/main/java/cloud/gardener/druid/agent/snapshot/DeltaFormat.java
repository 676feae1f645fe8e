package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.agent.store.NonClosingOutputStream;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The delta snapshot format of etcd-backup-restore: a JSON array of
 * {@code {"etcdEvent": <mvccpb.Event as Go's encoding/json writes it>, "time": ...}} followed
 * by the 32-byte SHA-256 of the JSON. Keys and values are base64; a put has no "type", a
 * delete has {@code "type":1}; zero fields are omitted.
 */
public final class DeltaFormat {

  private static final JsonFactory JSON = new JsonFactory();

  private DeltaFormat() {
  }

  public static void write(List<DeltaEvent> events, OutputStream out) throws IOException {
    MessageDigest digest = EtcdSnapshotHash.sha256();
    DigestOutputStream hashed = new DigestOutputStream(new NonClosingOutputStream(out), digest);
    try (JsonGenerator json = JSON.createGenerator(hashed)) {
      json.writeStartArray();
      for (DeltaEvent event : events) {
        writeEvent(json, event);
      }
      json.writeEndArray();
    }
    out.write(digest.digest());
  }

  private static void writeEvent(JsonGenerator json, DeltaEvent e) throws IOException {
    json.writeStartObject();
    json.writeObjectFieldStart("etcdEvent");
    if (e.isDelete()) {
      json.writeNumberField("type", 1);
    }
    json.writeObjectFieldStart("kv");
    json.writeStringField("key", Base64.getEncoder().encodeToString(e.key()));
    writeNonZero(json, "create_revision", e.createRevision());
    writeNonZero(json, "mod_revision", e.modRevision());
    writeNonZero(json, "version", e.version());
    if (e.value().length > 0) {
      json.writeStringField("value", Base64.getEncoder().encodeToString(e.value()));
    }
    writeNonZero(json, "lease", e.lease());
    json.writeEndObject();
    json.writeEndObject();
    json.writeStringField("time", e.time().toString());
    json.writeEndObject();
  }

  private static void writeNonZero(JsonGenerator json, String name, long value)
      throws IOException {
    if (value != 0) {
      json.writeNumberField(name, value);
    }
  }

  /**
   * Reads and verifies a whole delta (deltas are bounded by the delta memory limit). The
   * events' times are not parsed (a restore has no use for them; parsing them cost a tenth of
   * the read): every event read has {@link Instant#EPOCH} as its time.
   */
  public static List<DeltaEvent> read(InputStream in, String what) throws IOException {
    byte[] all = in.readAllBytes();
    return read(all, all.length, what);
  }

  /**
   * {@link #read(InputStream, String)} with each event's time (when the snapshotter received
   * it; Go's RFC 3339 text, an offset or a zone suffix allowed): for a point-in-time restore
   * and the history.
   */
  public static List<DeltaEvent> readTimed(InputStream in, String what) throws IOException {
    byte[] all = in.readAllBytes();
    return read(all, all.length, what, true);
  }

  /** {@link #read(InputStream, String)} of the delta in the first {@code length} bytes. */
  public static List<DeltaEvent> read(byte[] all, int length, String what) throws IOException {
    return read(all, length, what, false);
  }

  private static List<DeltaEvent> read(byte[] all, int length, String what, boolean timed)
      throws IOException {
    if (length < EtcdSnapshotHash.TRAILER) {
      throw new SnapshotIntegrityException(what + " is truncated: only " + length + " bytes");
    }
    int jsonLength = length - EtcdSnapshotHash.TRAILER;
    MessageDigest digest = EtcdSnapshotHash.sha256();
    digest.update(all, 0, jsonLength);
    byte[] expected = Arrays.copyOfRange(all, jsonLength, length);
    if (!MessageDigest.isEqual(digest.digest(), expected)) {
      throw new SnapshotIntegrityException(what + " failed its SHA-256 check");
    }
    try (JsonParser parser = JSON.createParser(all, 0, jsonLength)) {
      return parseEvents(parser, timed);
    } catch (IOException e) {
      throw new SnapshotIntegrityException(what + " is not a valid delta: " + e.getMessage(), e);
    }
  }

  private static List<DeltaEvent> parseEvents(JsonParser p, boolean timed) throws IOException {
    List<DeltaEvent> events = new ArrayList<>();
    expect(p.nextToken(), JsonToken.START_ARRAY);
    while (p.nextToken() == JsonToken.START_OBJECT) {
      events.add(parseWrapper(p, timed));
    }
    return events;
  }

  private static DeltaEvent parseWrapper(JsonParser p, boolean timed) throws IOException {
    DeltaEvent event = null;
    Instant time = Instant.EPOCH;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      if (field.equals("etcdEvent")) {
        event = parseEvent(p);
      } else if (timed && field.equals("time")) {
        time = parseTime(p.getText());
      } else {
        p.skipChildren();
      }
    }
    if (event == null) {
      throw new IOException("an event without etcdEvent");
    }
    return timed ? new DeltaEvent(event.isDelete(), event.key(), event.value(),
        event.createRevision(), event.modRevision(), event.version(), event.lease(), time)
        : event;
  }

  private static Instant parseTime(String text) throws IOException {
    try {
      return java.time.OffsetDateTime.parse(text).toInstant();
    } catch (java.time.format.DateTimeParseException e) {
      throw new IOException("an event time that is no RFC 3339 time: " + text, e);
    }
  }

  private static DeltaEvent parseEvent(JsonParser p) throws IOException {
    boolean delete = false;
    long[] numbers = new long[4];
    byte[][] keyValue = {new byte[0], new byte[0]};
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      switch (field) {
        case "type" -> delete = p.getValueAsInt() == 1 || "DELETE".equals(p.getText());
        case "kv" -> parseKeyValue(p, numbers, keyValue);
        default -> p.skipChildren();
      }
    }
    return new DeltaEvent(delete, keyValue[0], keyValue[1], numbers[0], numbers[1], numbers[2],
        numbers[3], Instant.EPOCH);
  }

  private static void parseKeyValue(JsonParser p, long[] numbers, byte[][] keyValue)
      throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      switch (field) {
        case "key" -> keyValue[0] = Base64.getDecoder().decode(p.getText());
        case "value" -> keyValue[1] = Base64.getDecoder().decode(p.getText());
        case "create_revision" -> numbers[0] = p.getValueAsLong();
        case "mod_revision" -> numbers[1] = p.getValueAsLong();
        case "version" -> numbers[2] = p.getValueAsLong();
        case "lease" -> numbers[3] = p.getValueAsLong();
        default -> p.skipChildren();
      }
    }
  }

  private static void expect(JsonToken actual, JsonToken expected) throws IOException {
    if (actual != expected) {
      throw new IOException("expected " + expected + " but found " + actual);
    }
  }
}
