// A local Neo4j Community DBMS from the jars in lib/ (see pom.xml), started without Docker:
//   java -cp 'lib/*' Main.java
// Environment: NEO4J_HOME (its folder; data under it), NEO4J_PASSWORD (the neo4j user's),
// NEO4J_BOLT_PORT (default 7687), NEO4J_BROWSER_PORT (default 7474; 0 turns Browser off).
// It loads neo4j.conf beside this file, sets the password, serves Neo4j Browser's static files,
// prints NEO4J_URI and "ready", and shuts down cleanly on SIGTERM or Ctrl-C.
import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;

public class Main {
  public static void main(String[] args) throws Exception {
    Path home = Path.of(env("NEO4J_HOME", "data/neo4j")).toAbsolutePath();
    String password = env("NEO4J_PASSWORD", "");
    if (password.length() < 8) fail("NEO4J_PASSWORD must be set, at least 8 characters (the neo4j user's password)");
    int boltPort = Integer.parseInt(env("NEO4J_BOLT_PORT", "7687"));
    int browserPort = Integer.parseInt(env("NEO4J_BROWSER_PORT", "7474"));
    Path conf = Path.of(System.getProperty("neo4j.conf", "neo4j.conf")).toAbsolutePath();
    Files.createDirectories(home);

    DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
        .loadPropertiesFromFile(conf)
        .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", boltPort))
        .build();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("stopping Neo4j");
      dbms.shutdown();
      stopped.countDown();
    }));
    // The password comes from the environment at every start; the first start also lifts the
    // "change it at first login" flag the default password carries.
    try {
      dbms.database("system").executeTransactionally(
          "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED", Map.of("password", password));
    } catch (RuntimeException e) {
      // A restart on the same data with the same password: already set.
      if (!String.valueOf(e.getMessage()).contains("cannot be the same")) {
        dbms.shutdown();
        throw e;
      }
    }

    if (browserPort > 0) serveBrowser(browserPort, boltPort);
    System.out.println("NEO4J_URI=bolt://127.0.0.1:" + boltPort + " NEO4J_USER=neo4j (password from NEO4J_PASSWORD)");
    System.out.println("Neo4j " + org.neo4j.kernel.internal.Version.getNeo4jVersion() + " ready, data in " + home);
    stopped.await();
  }

  /** Neo4j Browser's static files from its jar; Browser then connects to Bolt itself. */
  static void serveBrowser(int port, int boltPort) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    server.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      if (path.equals("/")) {
        // Browser reads its connection URL from the query string.
        exchange.getResponseHeaders().add("Location", "/browser/?dbms=bolt://127.0.0.1:" + boltPort);
        exchange.sendResponseHeaders(302, -1);
        exchange.close();
        return;
      }
      String resource = path.endsWith("/") ? path + "index.html" : path;
      try (InputStream in = resource.contains("..") ? null : Main.class.getResourceAsStream(resource)) {
        if (in == null) {
          exchange.sendResponseHeaders(404, -1);
        } else {
          byte[] body = in.readAllBytes();
          exchange.getResponseHeaders().add("Content-Type", contentType(resource));
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
        }
      }
      exchange.close();
    });
    server.start();
    System.out.println("Neo4j Browser at http://127.0.0.1:" + port + "/ (connects to bolt://127.0.0.1:" + boltPort + ")");
  }

  static String contentType(String path) {
    String p = path.toLowerCase();
    if (p.endsWith(".html")) return "text/html; charset=utf-8";
    if (p.endsWith(".js") || p.endsWith(".mjs")) return "text/javascript; charset=utf-8";
    if (p.endsWith(".css")) return "text/css; charset=utf-8";
    if (p.endsWith(".json")) return "application/json";
    if (p.endsWith(".svg")) return "image/svg+xml";
    if (p.endsWith(".png")) return "image/png";
    if (p.endsWith(".ico")) return "image/x-icon";
    if (p.endsWith(".woff2")) return "font/woff2";
    if (p.endsWith(".woff")) return "font/woff";
    if (p.endsWith(".ttf")) return "font/ttf";
    return "application/octet-stream";
  }

  static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isEmpty() ? fallback : v;
  }

  static void fail(String message) {
    System.err.println("cannot start Neo4j: " + message);
    System.exit(2);
  }
}
