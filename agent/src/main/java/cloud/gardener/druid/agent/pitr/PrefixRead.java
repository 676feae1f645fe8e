package cloud.gardener.druid.agent.pitr;

import cloud.gardener.druid.agent.pitr.UndeletePlan.LiveKey;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The keys under a prefix, read page by page at one revision (the first page's), so that a
 * large prefix is read consistently without one huge response. Keys are kept as ISO-8859-1
 * strings, which map every byte to one char and back: any key round-trips exactly.
 */
final class PrefixRead {

  static final int PAGE = 1_000;
  private static final long TIMEOUT_SECONDS = 60;

  private PrefixRead() {
  }

  static String key(ByteSequence key) {
    return new String(key.getBytes(), StandardCharsets.ISO_8859_1);
  }

  static ByteSequence bytes(String key) {
    return ByteSequence.from(key.getBytes(StandardCharsets.ISO_8859_1));
  }

  /** A key for people (UTF-8). */
  static String printable(String key) {
    return new String(key.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
  }

  /** Every key under {@code prefix} with its value and modification revision. */
  static Map<String, LiveKey> read(Client client, String prefix) throws PitrException {
    Map<String, LiveKey> keys = new LinkedHashMap<>();
    ByteSequence end = rangeEnd(bytes(prefix));
    ByteSequence from = bytes(prefix);
    long revision = 0;
    while (true) {
      GetOption.Builder option = GetOption.builder().withRange(end).withLimit(PAGE);
      if (revision > 0) {
        option.withRevision(revision);
      }
      GetResponse page = get(client, from, option.build());
      revision = revision > 0 ? revision : page.getHeader().getRevision();
      for (KeyValue kv : page.getKvs()) {
        keys.put(key(kv.getKey()), new LiveKey(kv.getValue().getBytes(), kv.getModRevision()));
      }
      if (!page.isMore() || page.getKvs().isEmpty()) {
        return keys;
      }
      byte[] last = page.getKvs().get(page.getKvs().size() - 1).getKey().getBytes();
      from = ByteSequence.from(Arrays.copyOf(last, last.length + 1)); // the next key after it
    }
  }

  private static GetResponse get(Client client, ByteSequence from, GetOption option)
      throws PitrException {
    try {
      return client.getKVClient().get(from, option).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new PitrException("cannot read the keys: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PitrException("interrupted while reading the keys", e);
    }
  }

  /** The end of the range of keys starting with {@code prefix} (etcd's prefix end). */
  static ByteSequence rangeEnd(ByteSequence prefix) {
    byte[] end = prefix.getBytes().clone();
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xff) {
        end[i]++;
        return ByteSequence.from(Arrays.copyOf(end, i + 1));
      }
    }
    return ByteSequence.from(new byte[] {0});
  }
}
