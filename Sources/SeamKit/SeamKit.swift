// SeamKit: the client side of Seam for apps (sessions, keep-alive, tracking). It depends only on
// SeamWire and Foundation so an app does not pull in the server's dependencies.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_exported import SeamWire
