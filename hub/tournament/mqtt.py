"""A thin layer over paho-mqtt 2.x for the TD and the tables: MQTT v5, JSON payloads,
reconnecting on its own, subscriptions renewed after every reconnect, a persistent
session (QoS 1 messages for a client that is away are queued by the broker), and a
last-will message.

Every payload this module sends passes through ``on_publish_hook`` first when one is
set: the tests hang a scanner there to prove that nothing hidden is ever published.
"""

import collections
import errno
import json
import select
import threading

import paho.mqtt.client as paho
from paho.mqtt.properties import Properties
from paho.mqtt.packettypes import PacketTypes

from .broker import MESSAGE_LIMIT, parse_url

class PollSelect:
    """The one call paho-mqtt makes of the ``select`` module (``select.select`` in its
    ``Client._loop``), answered with poll(2). ``select()`` can't watch a descriptor numbered
    1024 or more (FD_SETSIZE): paho takes its ValueError for a lost connection and reconnects
    forever, so a process with many files open (a TD beside hundreds of connections, a bench
    of many tables) would silently never come online (issue 26: 46 of 128 tables). Raises
    what select raises where paho relies on it: TypeError for a closed socket (None), and
    ValueError for a negative descriptor."""

    error = OSError
    _R = select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR
    _W = select.POLLOUT | select.POLLHUP | select.POLLERR

    @staticmethod
    def _fd(obj):
        fd = obj if isinstance(obj, int) else getattr(obj, "fileno", None)
        if fd is None:
            raise TypeError("argument must be an int, or have a fileno() method")
        if not isinstance(fd, int):
            fd = fd()
        if fd < 0:
            raise ValueError("file descriptor cannot be a negative integer (%d)" % fd)
        return fd

    @classmethod
    def select(cls, rlist, wlist, xlist, timeout=None):
        want = {}
        for objs, mask in ((rlist, select.POLLIN), (wlist, select.POLLOUT), (xlist, select.POLLPRI)):
            for obj in objs:
                fd = cls._fd(obj)
                want[fd] = want.get(fd, 0) | mask
        poller = select.poll()
        for fd, mask in want.items():
            poller.register(fd, mask)
        ms = None if timeout is None else max(0, int(timeout * 1000 + 0.999))
        got = dict(poller.poll(ms))
        for ev in got.values():
            if ev & select.POLLNVAL:
                raise OSError(errno.EBADF, "Bad file descriptor")
        r = [o for o in rlist if got.get(cls._fd(o), 0) & cls._R]
        w = [o for o in wlist if got.get(cls._fd(o), 0) & cls._W]
        x = [o for o in xlist if got.get(cls._fd(o), 0) & select.POLLPRI]
        return r, w, x


paho.select = PollSelect        # type: ignore[assignment]  # paho's module global: its one select() call

ROOT = "lumen"


class TooLarge(ValueError):
    """A payload over the broker's message size limit, refused before it is sent."""


KEPT_ANSWERS = 256          # the broker's answers to our latest QoS 1 publishes kept for wait_published
SESSION_EXPIRY_S = 3600     # the broker keeps a client's subscriptions and queued QoS 1 messages this long


def topic(event, *parts):
    return "/".join((ROOT, event) + tuple(str(p) for p in parts))


def encode(obj):
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def decode(payload):
    """JSON from a payload, or None if it is not a JSON object (a bad message names itself
    in the caller's log; it never changes state)."""
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None


class Link:
    """One MQTT connection. ``handlers`` maps a subscription filter to fn(topic, obj)."""

    on_publish_hook = None      # class-wide: fn(topic, payload_bytes) for every publish (tests)

    def __init__(self, url, client_id, will=None, keepalive=5, clean=False):
        host, port, user, password = parse_url(url)
        self.host, self.port = host, port
        self.client_id = client_id
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=paho.MQTTv5)
        if user:
            self.client.username_pw_set(user, password)
        self.client.reconnect_delay_set(min_delay=1, max_delay=2)
        self.client.max_inflight_messages_set(100)
        self.client.max_queued_messages_set(0)
        self.keepalive = keepalive
        self.clean = clean
        if will:
            t, obj = will
            self.client.will_set(t, encode(obj), qos=1, retain=True)
        self.handlers = {}
        self.connected = threading.Event()
        self.ever_connected = threading.Event()
        # set once the on_connect callbacks of a (re)connect have run: wait_connected waits for
        # it, so what a caller does next comes after the link's own reconnect work (a table's
        # "resend everything at once" no longer lands after the caller's first report)
        self.settled = threading.Event()
        self.refused = None                 # the broker's reason when it refuses us (bad password)
        self.refused_event = threading.Event()
        self.on_connect = []                # fn() after every (re)connect and resubscribe
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_message = self._message
        self.client.on_publish = self._published
        # mid -> reason code (the MQTT v5 PUBACK) of the latest KEPT_ANSWERS publishes, for
        # wait_published. Bounded (issue 26): paho answers every publish, QoS 0 ones too, with a
        # ~1.1 KB ReasonCode, and keeping them all grew a TD by 0.3 MB a second at 256 tables
        # (their time requests) and a table's hub by 1.1 KB every clock sync, all day. (Not
        # filtered by QoS here: paho calls back holding its message lock, so a publish can't
        # hold ours while it registers a mid.)
        self.publish_results = collections.OrderedDict()
        self._pub_done = threading.Condition()

    # ------------------------------------------------------------ lifecycle
    def start(self):
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = 0 if self.clean else SESSION_EXPIRY_S
        self.client.connect_async(self.host, self.port, keepalive=self.keepalive, clean_start=self.clean,
                                  properties=props)
        self.client.loop_start()
        return self

    def stop(self, graceful=True):
        """``graceful``: send DISCONNECT (no last will). Otherwise just drop the socket,
        as a crash would (the broker sends the will when the keepalive runs out)."""
        if graceful:
            try:
                self.client.disconnect()
            except Exception:
                pass
        else:
            try:
                sock = self.client.socket()
                if sock is not None:
                    sock.close()
            except Exception:
                pass
        self.client.loop_stop()
        self.settled.clear()
        self.connected.clear()

    def wait_connected(self, timeout=30):
        return self.settled.wait(timeout) and self.connected.is_set()

    # ------------------------------------------------------------ callbacks
    def _connected(self, client, userdata, flags, reason, props):
        if reason.is_failure:
            self.refused = str(reason)
            self.refused_event.set()
            return
        for filt in self.handlers:
            client.subscribe(filt, qos=1)
        self.connected.set()
        self.ever_connected.set()
        try:
            for fn in list(self.on_connect):
                fn()
        finally:
            self.settled.set()

    def _disconnected(self, client, userdata, flags, reason, props):
        self.settled.clear()
        self.connected.clear()

    def _message(self, client, userdata, msg):
        obj = decode(msg.payload)
        for filt, fn in list(self.handlers.items()):
            if paho.topic_matches_sub(filt, msg.topic):
                fn(msg.topic, obj, msg)

    def _published(self, client, userdata, mid, reason, props):
        with self._pub_done:
            self.publish_results[mid] = reason
            while len(self.publish_results) > KEPT_ANSWERS:
                self.publish_results.popitem(last=False)
            self._pub_done.notify_all()

    # ------------------------------------------------------------ use
    def subscribe(self, filt, fn):
        self.handlers[filt] = fn
        if self.connected.is_set():
            self.client.subscribe(filt, qos=1)

    def publish(self, t, obj, qos=1, retain=False):
        payload = obj if isinstance(obj, bytes) else encode(obj)
        if len(payload) > MESSAGE_LIMIT:
            # the broker would drop the connection for it, and paho sends an unanswered QoS 1
            # message again at every reconnect: the link would never carry anything again
            raise TooLarge("a message of %d bytes to %s: the broker takes at most %d (message_size_limit)"
                           % (len(payload), t, MESSAGE_LIMIT))
        hook = Link.on_publish_hook
        if hook is not None:
            hook(t, payload)
        return self.client.publish(t, payload, qos=qos, retain=retain)

    def wait_published(self, info, timeout=30):
        """The broker's answer to one of the latest publishes (for QoS 1 its PUBACK reason code),
        or None if none came within ``timeout``."""
        with self._pub_done:
            self._pub_done.wait_for(lambda: info.mid in self.publish_results, timeout)
            return self.publish_results.get(info.mid)
