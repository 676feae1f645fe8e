package cloud.gardener.druid.agent.verify;

import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * SHA-256 over every key and value of an etcd at one revision, in key order, each
 * length-prefixed; revisions, versions and leases are left out, so a database whose keys were
 * replayed with new revisions hashes like its source. Read in pages of about
 * {@link #PAGE_BYTES} (the first {@link #PAGE} keys; fewer when a page of large values passes
 * the client's message limit).
 */
final class KvContentHash {

  static final int PAGE = 1_000;
  static final int MIN_PAGE = 16;
  static final int MAX_PAGE = 10_000;
  static final long PAGE_BYTES = 16L << 20;
  private static final byte[] ALL = {0};
  private static final long TIMEOUT_SECONDS = 60;

  private KvContentHash() {
  }

  /** The hash and how many keys it covers. */
  record Result(String hash, long keys) {
  }

  static Result of(MemberClient etcd, long revision) throws EtcdException {
    MessageDigest digest = sha256();
    byte[] from = ALL;
    long keys = 0;
    int limit = PAGE;
    while (true) {
      GetResponse page;
      try {
        page = page(etcd, from, revision, limit);
      } catch (EtcdException e) {
        if (limit == 1 || !tooLarge(e)) {
          throw e;
        }
        limit = Math.max(1, limit / 8); // large values: the answer passed the client's limit
        continue;
      }
      List<KeyValue> kvs = page.getKvs();
      long bytes = 0;
      for (KeyValue kv : kvs) {
        add(digest, kv.getKey().getBytes());
        add(digest, kv.getValue().getBytes());
        bytes += kv.getKey().size() + kv.getValue().size();
      }
      keys += kvs.size();
      limit = nextLimit(limit, kvs.size(), bytes);
      if (!page.isMore() || kvs.isEmpty()) {
        return new Result(HexFormat.of().formatHex(digest.digest()), keys);
      }
      byte[] last = kvs.get(kvs.size() - 1).getKey().getBytes();
      from = Arrays.copyOf(last, last.length + 1); // the next key after the last one
    }
  }

  /**
   * Pages of about {@link #PAGE_BYTES}: etcd counts every key after a page's first for each
   * page (its answer's {@code count}), so few large pages cost far less than many small ones.
   */
  static int nextLimit(int limit, int keys, long bytes) {
    if (keys < limit) {
      return limit;
    }
    long perKey = Math.max(1, bytes / Math.max(1, keys));
    return (int) Math.max(MIN_PAGE, Math.min(MAX_PAGE, PAGE_BYTES / perKey));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void add(MessageDigest digest, byte[] bytes) {
    digest.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
    digest.update(bytes);
  }

  private static boolean tooLarge(EtcdException e) {
    String message = String.valueOf(e.getMessage());
    return message.contains("RESOURCE_EXHAUSTED") || message.contains("larger than max");
  }

  private static GetResponse page(MemberClient etcd, byte[] from, long revision, int limit)
      throws EtcdException {
    GetOption option = GetOption.builder().withRange(ByteSequence.from(ALL))
        .withRevision(revision).withLimit(limit).withSerializable(true)
        .withSortField(GetOption.SortTarget.KEY).withSortOrder(GetOption.SortOrder.ASCEND)
        .build();
    var future = etcd.client().getKVClient().get(ByteSequence.from(from), option);
    try {
      return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new EtcdException("cannot read the keys of " + etcd.endpoint() + " at revision "
          + revision + ": " + cause.getMessage(), cause);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new EtcdException("cannot read the keys of " + etcd.endpoint() + ": no answer", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EtcdException("interrupted while hashing the keys", e);
    }
  }
}
