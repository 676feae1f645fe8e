package cloud.gardener.druid.agent.util;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A port nobody listens on right now, on a loopback address. */
public final class LoopbackPorts {

  private LoopbackPorts() {
  }

  public static int on(String loopbackHost) throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(loopbackHost))) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }
}
