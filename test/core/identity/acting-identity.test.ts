import { expect } from 'chai';
import { describeActing, isLinkVendor } from '../../../core/identity/acting-identity.js';
import { atlassianGatewayBase } from '../../../core/identity/atlassian-gateway.js';

describe('Who acted upstream', () => {
  it('says whom a call acts as, for approval cards and webhook events', () => {
    expect(describeActing({ kind: 'user', vendor: 'github', login: 'alice' })).to.equal('acts as alice on GitHub');
    expect(describeActing({ kind: 'user', vendor: 'atlassian', login: 'alice@acme.example', accountId: '712020:a' })).to.equal(
      'acts as alice@acme.example on Atlassian Cloud',
    );
    expect(describeActing({ kind: 'service', label: 'GITHUB_TOKEN' })).to.equal('acts as the service credential GITHUB_TOKEN');
    expect(isLinkVendor('jira-datacenter')).to.equal(true);
    expect(isLinkVendor('jira')).to.equal(false);
  });

  it("gives the Atlassian API gateway's base for a cloud id, and refuses what is not one", () => {
    expect(atlassianGatewayBase('jira', 'a436116f-02ce-4520-8fbb-7301462a1674')).to.equal(
      'https://api.atlassian.com/ex/jira/a436116f-02ce-4520-8fbb-7301462a1674',
    );
    expect(atlassianGatewayBase('confluence', 'abc', 'http://127.0.0.1:9/')).to.equal('http://127.0.0.1:9/ex/confluence/abc');
    expect(() => atlassianGatewayBase('jira', '../admin')).to.throw(TypeError);
  });
});
