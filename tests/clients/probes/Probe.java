// Java's java.net.Socket and java.net.http.HttpClient, timed in-process
// after a warm-up connect. Run as a single-file program (JDK 11+):
//   java Probe.java socket|httpclient HOST WARMPORT PORT
// and prints one JSON line for tests/clients/harness.py.
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

public class Probe {
    static String quote(String s) {
        return s == null ? "null" : "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    // Socket(host, port) resolves one InetAddress (getByName: the first of
    // getAllByName, IPv4 first unless java.net.preferIPv6Addresses) and
    // connects to that address only.
    static String socket(String host, int port) throws Exception {
        try (Socket s = new Socket(host, port)) {
            return s.getInetAddress().getHostAddress();
        }
    }

    // HttpClient has no hook at the TCP connect, so this times the whole
    // request; the harness's server answers at once, so the difference is
    // the request's own round trip (well under a millisecond here).
    static String httpclient(HttpClient client, String host, int port) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/"))
                .timeout(Duration.ofSeconds(60)).build();
        client.send(req, HttpResponse.BodyHandlers.discarding());
        return null;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: java Probe.java socket|httpclient HOST WARMPORT PORT");
            System.exit(2);
        }
        String mode = args[0], host = args[1];
        int warm = Integer.parseInt(args[2]), port = Integer.parseInt(args[3]);
        HttpClient client = mode.equals("httpclient")
                ? HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(60)).build()
                : null;
        // Two warm-ups: the first loads the classes, the second runs the
        // connect path once more so that less of it is interpreted when timed.
        for (int i = 0; i < 2; i++) {
            try {
                if (client != null) httpclient(client, host, warm); else socket(host, warm);
            } catch (Exception e) {
                // Their outcome does not matter.
            }
        }
        String peer = null, error = null;
        // System.nanoTime() is CLOCK_MONOTONIC on Linux, the clock of the
        // harness's accept times, so the harness can also time HttpClient's
        // connect to the server's accept.
        long start = System.nanoTime();
        try {
            peer = client != null ? httpclient(client, host, port) : socket(host, port);
        } catch (Exception e) {
            error = e.toString();
        }
        double ms = (System.nanoTime() - start) / 1e6;
        System.out.println("{\"version\": " + quote(Runtime.version().toString()) + ", \"start_ns\": " + start
                + ", \"connected\": "
                + (error == null) + ", \"ms\": " + ms + ", \"peer\": " + quote(peer) + ", \"error\": "
                + quote(error) + "}");
    }
}
