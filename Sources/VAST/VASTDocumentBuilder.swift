/// Maps an ``ElementNode`` tree onto the VAST model, collecting diagnostics for what it skips.
struct VASTDocumentBuilder {
    private(set) var diagnostics: [VASTDiagnostic] = []

    mutating func document(from root: ElementNode) throws(VASTParseError) -> VASTDocument {
        if root.isNamed("VideoAdServingTemplate") {
            throw .unsupportedVersion("1.0 (VideoAdServingTemplate)", line: root.line)
        }
        guard root.isNamed("VAST") else {
            throw .unexpectedRootElement(found: root.qualifiedName, expected: "VAST", line: root.line)
        }
        let version = root.trimmedAttribute("version")
        if let version {
            let major = Int(String(version.prefix { $0 != "." }).trimmingXMLWhitespace())
            guard let major, (2...4).contains(major) else { throw .unsupportedVersion(version, line: root.line) }
        } else {
            note(root, "no version attribute; read as VAST 4")
        }
        var ads: [VASTAd] = []
        for child in root.children(named: "Ad") {
            if let ad = ad(from: child) { ads.append(ad) }
        }
        return VASTDocument(
            version: version, ads: ads, errorURLs: urls(root.children(named: "Error")), diagnostics: diagnostics)
    }

    // MARK: - Ads

    private mutating func ad(from node: ElementNode) -> VASTAd? {
        let sequence = integer(node, "sequence")
        let body: VASTAd.Body
        if let inline = node.child(named: "InLine") {
            body = .inline(self.inline(from: inline))
        } else if let wrapper = node.child(named: "Wrapper") {
            body = .wrapper(self.wrapper(from: wrapper))
        } else {
            note(node, "Ad has neither InLine nor Wrapper; ad skipped")
            return nil
        }
        return VASTAd(
            id: node.trimmedAttribute("id"), sequence: sequence,
            conditionalAd: LenientValues.bool(node.attribute("conditionalAd")),
            adType: node.trimmedAttribute("adType"), body: body)
    }

    private mutating func inline(from node: ElementNode) -> VASTInline {
        VASTInline(
            adSystem: adSystem(node),
            adTitle: node.child(named: "AdTitle")?.trimmedText,
            adServingId: node.child(named: "AdServingId")?.trimmedText,
            description: node.child(named: "Description")?.trimmedText,
            advertiser: node.child(named: "Advertiser")?.trimmedText,
            pricing: node.child(named: "Pricing").flatMap { pricing in
                pricing.trimmedText.map {
                    VASTPricing(
                        model: pricing.trimmedAttribute("model"), currency: pricing.trimmedAttribute("currency"),
                        value: $0)
                }
            },
            categories: node.children(named: "Category").compactMap { category in
                category.trimmedText.map { VASTCategory(authority: category.trimmedAttribute("authority"), value: $0) }
            },
            survey: node.child(named: "Survey")?.trimmedText,
            impressions: impressions(node),
            errorURLs: urls(node.children(named: "Error")),
            creatives: creatives(node),
            verifications: verifications(node),
            extensions: VASTDocumentBuilder.extensions(node.child(named: "Extensions"))
        )
    }

    private mutating func wrapper(from node: ElementNode) -> VASTWrapper {
        var uri = node.child(named: "VASTAdTagURI")?.trimmedText
        if uri == nil, let legacy = node.child(named: "VASTAdTagURL") {
            uri = legacy.child(named: "URL")?.trimmedText ?? legacy.trimmedText
        }
        if uri == nil { note(node, "Wrapper has no VASTAdTagURI; it cannot be followed") }
        return VASTWrapper(
            adSystem: adSystem(node),
            vastAdTagURI: uri,
            followAdditionalWrappers: flag(node, "followAdditionalWrappers", default: true),
            allowMultipleAds: flag(node, "allowMultipleAds", default: false),
            fallbackOnNoAd: node.attribute("fallbackOnNoAd").flatMap { _ in flag(node, "fallbackOnNoAd", default: false)
            },
            impressions: impressions(node),
            errorURLs: urls(node.children(named: "Error")),
            creatives: creatives(node),
            verifications: verifications(node),
            extensions: VASTDocumentBuilder.extensions(node.child(named: "Extensions"))
        )
    }

    private func adSystem(_ node: ElementNode) -> VASTAdSystem? {
        guard let element = node.child(named: "AdSystem"), let name = element.trimmedText else { return nil }
        return VASTAdSystem(name: name, version: element.trimmedAttribute("version"))
    }

    private func impressions(_ node: ElementNode) -> [VASTImpression] {
        node.children(named: "Impression").compactMap { impression in
            impression.trimmedText.map { VASTImpression(id: impression.trimmedAttribute("id"), url: $0) }
        }
    }

    // MARK: - Creatives

    private mutating func creatives(_ node: ElementNode) -> [VASTCreative] {
        guard let container = node.child(named: "Creatives") else { return [] }
        return container.children(named: "Creative").map { creative(from: $0) }
    }

    private mutating func creative(from node: ElementNode) -> VASTCreative {
        let universalAdIds = node.children(named: "UniversalAdId").compactMap { element -> VASTUniversalAdId? in
            guard let value = element.trimmedText ?? element.trimmedAttribute("idValue") else { return nil }
            return VASTUniversalAdId(idRegistry: element.trimmedAttribute("idRegistry") ?? "unknown", value: value)
        }
        return VASTCreative(
            id: node.trimmedAttribute("id"),
            adId: node.trimmedAttribute("adId"),
            sequence: integer(node, "sequence"),
            apiFramework: node.trimmedAttribute("apiFramework"),
            universalAdIds: universalAdIds,
            linear: node.child(named: "Linear").map { linear(from: $0) },
            nonLinearCount: node.child(named: "NonLinearAds")?.children(named: "NonLinear").count ?? 0,
            companionCount: node.child(named: "CompanionAds")?.children(named: "Companion").count ?? 0
        )
    }

    private mutating func linear(from node: ElementNode) -> VASTLinear {
        var skipOffset: VASTOffset?
        if let text = node.trimmedAttribute("skipoffset") {
            skipOffset = VASTOffset(text)
            if skipOffset == nil { note(node, "unreadable skipoffset \"\(text)\"; ad treated as not skippable") }
        }
        var duration: Double?
        if let element = node.child(named: "Duration") {
            duration = VASTTime.seconds(from: element.text)
            if duration == nil {
                note(
                    element, "unreadable duration \"\(element.text.trimmingXMLWhitespace())\"; expected HH:MM:SS(.mmm)")
            }
        }
        let files = node.child(named: "MediaFiles")
        var mediaFiles: [VASTMediaFile] = []
        for element in files?.children(named: "MediaFile") ?? [] {
            if let file = mediaFile(from: element) { mediaFiles.append(file) }
        }
        let mezzanines = (files?.children(named: "Mezzanine") ?? []).compactMap { element -> VASTMezzanine? in
            guard let url = element.trimmedText else { return nil }
            return VASTMezzanine(
                id: element.trimmedAttribute("id"),
                delivery: element.trimmedAttribute("delivery").map(VASTDelivery.init),
                type: element.trimmedAttribute("type"), width: LenientValues.int(element.attribute("width")),
                height: LenientValues.int(element.attribute("height")), codec: element.trimmedAttribute("codec"),
                fileSize: LenientValues.int(element.attribute("fileSize")),
                mediaType: element.trimmedAttribute("mediaType"), url: url)
        }
        let interactive = (files?.children(named: "InteractiveCreativeFile") ?? []).compactMap {
            element -> VASTInteractiveCreativeFile? in
            guard let url = element.trimmedText else { return nil }
            return VASTInteractiveCreativeFile(
                type: element.trimmedAttribute("type"), apiFramework: element.trimmedAttribute("apiFramework"),
                variableDuration: LenientValues.bool(element.attribute("variableDuration")), url: url)
        }
        return VASTLinear(
            duration: duration,
            skipOffset: skipOffset,
            mediaFiles: mediaFiles,
            mezzanines: mezzanines,
            interactiveCreativeFiles: interactive,
            trackingEvents: trackingEvents(node.child(named: "TrackingEvents")),
            videoClicks: videoClicks(node.child(named: "VideoClicks")),
            adParameters: node.child(named: "AdParameters")?.trimmedText
        )
    }

    private mutating func mediaFile(from node: ElementNode) -> VASTMediaFile? {
        // VAST 2 and earlier sometimes wrap the URL in a <URL> child.
        guard let url = node.trimmedText ?? node.child(named: "URL")?.trimmedText else {
            note(node, "MediaFile has no URL; skipped")
            return nil
        }
        guard let type = node.trimmedAttribute("type") else {
            note(node, "MediaFile has no type attribute; skipped")
            return nil
        }
        return VASTMediaFile(
            id: node.trimmedAttribute("id"),
            delivery: node.trimmedAttribute("delivery").map(VASTDelivery.init),
            type: type,
            width: LenientValues.int(node.attribute("width")),
            height: LenientValues.int(node.attribute("height")),
            bitrate: LenientValues.int(node.attribute("bitrate")),
            minBitrate: LenientValues.int(node.attribute("minBitrate")),
            maxBitrate: LenientValues.int(node.attribute("maxBitrate")),
            codec: node.trimmedAttribute("codec"),
            apiFramework: node.trimmedAttribute("apiFramework"),
            scalable: LenientValues.bool(node.attribute("scalable")),
            maintainAspectRatio: LenientValues.bool(node.attribute("maintainAspectRatio")),
            fileSize: LenientValues.int(node.attribute("fileSize")),
            mediaType: node.trimmedAttribute("mediaType"),
            url: url
        )
    }

    private mutating func trackingEvents(_ container: ElementNode?) -> [VASTTrackingEvent] {
        guard let container else { return [] }
        var events: [VASTTrackingEvent] = []
        for element in container.children(named: "Tracking") {
            guard let url = element.trimmedText else { continue }
            guard let name = element.trimmedAttribute("event") else {
                note(element, "Tracking without event attribute; skipped")
                continue
            }
            var offset: VASTOffset?
            if let text = element.trimmedAttribute("offset") {
                offset = VASTOffset(text)
                if offset == nil { note(element, "unreadable offset \"\(text)\" on \(name) tracking") }
            }
            events.append(VASTTrackingEvent(event: VASTEventName(rawValue: name), url: url, offset: offset))
        }
        return events
    }

    private func videoClicks(_ node: ElementNode?) -> VASTVideoClicks {
        guard let node else { return VASTVideoClicks() }
        func clicks(_ name: String) -> [VASTClick] {
            node.children(named: name).compactMap { element in
                element.trimmedText.map { VASTClick(id: element.trimmedAttribute("id"), url: $0) }
            }
        }
        return VASTVideoClicks(
            clickThrough: clicks("ClickThrough").first, clickTracking: clicks("ClickTracking"),
            customClicks: clicks("CustomClick"))
    }

    // MARK: - Verifications and extensions

    private mutating func verifications(_ node: ElementNode) -> [VASTVerification] {
        var containers = node.children(named: "AdVerifications")
        // VAST 3 carried them in an extension.
        for extensionNode in node.child(named: "Extensions")?.children(named: "Extension") ?? []
        where extensionNode.attribute("type")?.trimmingXMLWhitespace().caseInsensitiveEquals("AdVerifications") == true
        {
            containers += extensionNode.children(named: "AdVerifications")
        }
        var result: [VASTVerification] = []
        for container in containers {
            for element in container.children(named: "Verification") {
                func resources(_ name: String) -> [VASTVerification.Resource] {
                    element.children(named: name).compactMap { resource in
                        resource.trimmedText.map {
                            VASTVerification.Resource(
                                url: $0, apiFramework: resource.trimmedAttribute("apiFramework"),
                                browserOptional: LenientValues.bool(resource.attribute("browserOptional")),
                                type: resource.trimmedAttribute("type"))
                        }
                    }
                }
                result.append(
                    VASTVerification(
                        vendor: element.trimmedAttribute("vendor"),
                        javaScriptResources: resources("JavaScriptResource"),
                        executableResources: resources("ExecutableResource"),
                        parameters: element.child(named: "VerificationParameters")?.trimmedText,
                        trackingEvents: trackingEvents(element.child(named: "TrackingEvents")),
                        rawXML: element.outerXML
                    ))
            }
        }
        return result
    }

    static func extensions(_ container: ElementNode?) -> [VASTExtension] {
        guard let container else { return [] }
        return container.children(named: "Extension").map { element in
            VASTExtension(
                type: element.trimmedAttribute("type"),
                attributes: Dictionary(
                    element.attributes.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }),
                innerXML: element.innerXML)
        }
    }

    // MARK: - Values

    private func urls(_ nodes: [ElementNode]) -> [String] {
        nodes.compactMap(\.trimmedText)
    }

    private mutating func integer(_ node: ElementNode, _ attribute: String) -> Int? {
        guard let text = node.trimmedAttribute(attribute) else { return nil }
        guard let value = LenientValues.int(text) else {
            note(node, "unreadable \(attribute) \"\(text)\"; ignored")
            return nil
        }
        return value
    }

    private mutating func flag(_ node: ElementNode, _ attribute: String, default defaultValue: Bool) -> Bool {
        guard let text = node.attribute(attribute) else { return defaultValue }
        guard let value = LenientValues.bool(text) else {
            note(node, "unreadable \(attribute) \"\(text)\"; using \(defaultValue)")
            return defaultValue
        }
        return value
    }

    private mutating func note(_ node: ElementNode, _ message: String) {
        diagnostics.append(
            VASTDiagnostic(line: node.line > 0 ? node.line : nil, element: node.localName, message: message))
    }
}
