package cloud.gardener.druid.testenv.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Parses {@code /proc/net/tcp} and {@code /proc/net/tcp6} (of this network namespace). */
final class ProcNetTcp {

  /** One socket: addresses as {@code ip:port}, and its inode. */
  record Socket(InetAddress localAddress, int localPort, InetAddress remoteAddress,
      int remotePort, long inode) {

    String local() {
      return localAddress.getHostAddress() + ":" + localPort;
    }

    String remote() {
      return remoteAddress.getHostAddress() + ":" + remotePort;
    }

    /** Local address loopback, remote address loopback or unset (a listening socket). */
    boolean isLoopbackOnly() {
      return isLoopback(localAddress)
          && (remoteAddress.isAnyLocalAddress() || isLoopback(remoteAddress));
    }
  }

  private ProcNetTcp() {
  }

  static List<Socket> readAll() {
    List<Socket> sockets = new ArrayList<>();
    for (String file : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      try {
        List<String> lines = Files.readAllLines(Path.of(file));
        lines.stream().skip(1).map(ProcNetTcp::parse).forEach(sockets::add);
      } catch (IOException e) {
        // no IPv6 in this kernel
      }
    }
    return sockets;
  }

  static Socket parse(String line) {
    String[] f = line.trim().split("\\s+");
    String[] local = f[1].split(":");
    String[] remote = f[2].split(":");
    return new Socket(address(local[0]), Integer.parseInt(local[1], 16),
        address(remote[0]), Integer.parseInt(remote[1], 16), Long.parseLong(f[9]));
  }

  /** The kernel prints each 32-bit word of the address in host (little-endian) order. */
  static InetAddress address(String hex) {
    byte[] bytes = new byte[hex.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) {
      for (int i = 0; i < 4; i++) {
        int at = (word * 4 + 3 - i) * 2;
        bytes[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
      }
    }
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(hex, e);
    }
  }

  static boolean isLoopback(InetAddress address) {
    byte[] b = address.getAddress();
    if (address.isLoopbackAddress()) {
      return true;
    }
    // IPv4-mapped IPv6 ::ffff:127.x.y.z
    if (b.length == 16) {
      for (int i = 0; i < 10; i++) {
        if (b[i] != 0) {
          return false;
        }
      }
      return b[10] == (byte) 0xff && b[11] == (byte) 0xff && b[12] == 127;
    }
    return false;
  }
}
